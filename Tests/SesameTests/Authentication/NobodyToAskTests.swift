import Sesame
import SesameTesting
import Testing

/// A refusal nobody saw is not the owner's Cancel (issue 47): a service that
/// found nobody to ask, and a presenter whose prompt could not be shown,
/// end in `notInteractive` saying "nobody could be asked", never
/// `userCancel`.
@Suite("A3, A10: nobody could be asked is notInteractive, not userCancel")
struct NobodyToAskTests {
    /// A presenter whose prompts cannot be shown, as a pinentry without a terminal.
    private struct UnshownPresenter: PromptPresenter {
        func begin(_ prompt: AuthenticationPrompt) async {}
        func show(_ message: PromptMessage) async {}
        func userAction() async -> PromptAction? { nil }
        func requestSecret(_ request: SecretRequest) async -> SecretEntry { .notShown("pinentry: Inappropriate ioctl for device") }
        func end(_ outcome: AuthenticationError?) async {}
    }

    private static func failure(_ context: AuthenticationContext, _ policy: AuthenticationPolicy) async -> AuthenticationError? {
        do {
            try await context.evaluate(policy, localizedReason: "sign")
            return nil
        } catch {
            return error
        }
    }

    @Test("SPEC A3, A10: a context refused because nobody could be asked fails at once with notInteractive, saying who and why")
    func refusedContext() async throws {
        let presenter = RecordingPresenter()
        let context = AuthenticationContext(Authenticators(appName: "ssh-agent", devicePasscode: SimulatedPasscode("1234"), presenter: presenter))
        context.refuseInteraction(nobodyToAsk: "`ssh-keygen` (pid 42): it has no terminal, and there is no display")
        #expect(context.interactionNotAllowed && context.nobodyToAsk != nil)
        let error = try #require(await Self.failure(context, .deviceOwner))
        #expect(error.code == .notInteractive && error.reason?.kind == .nobodyToAsk)
        #expect(error.message.contains("nobody could be asked: `ssh-keygen` (pid 42): it has no terminal"), "\(error.message)")
        #expect(presenter.secretRequests.isEmpty, "nobody was asked")
    }

    @Test("SPEC A3: a password prompt that could not be shown is notInteractive naming why, for the device and the app passcode")
    func unshownPrompt() async throws {
        let passcode = SimulatedPasscode("1234")
        let authenticators = Authenticators(appName: "ssh-agent", devicePasscode: passcode, appPasscode: passcode, presenter: UnshownPresenter())
        for policy in [AuthenticationPolicy.deviceOwner, .appPasscode] {
            let error = try #require(await Self.failure(AuthenticationContext(authenticators), policy))
            #expect(error.code == .notInteractive && error.code != .userCancel, "\(policy): \(error)")
            #expect(error.message.contains("nobody could be asked") && error.message.contains("Inappropriate ioctl for device"), "\(error.message)")
        }
    }
}
