import Foundation
import Sesame
import SesameTesting
import Testing

@Suite("SPEC E3: app passcode with the rest of Sesame")
struct AppPasscodeIntegrationTests {
    @Test("SPEC E3: AppPasscode is the context's .appPasscode verifier; its delay becomes retryAfter")
    func contextPolicy() async throws {
        let passcodes = PasscodeFixture()
        let passcode = passcodes.make()
        try await passcode.set(SecretBytes(utf8: "123456"))
        let presenter = RecordingPresenter()
        let authenticators = Authenticators(appName: "Notes", appPasscode: passcode, presenter: presenter, clock: passcodes.clock)
        presenter.answerSecrets(.enter("000000"), .enter("123456"))
        try await AuthenticationContext(authenticators).evaluate(.appPasscode, localizedReason: "Unlock")

        _ = await passcodes.fail(passcode, times: 4)
        presenter.answerSecrets(.enter("wrong-again"))
        do {
            try await AuthenticationContext(authenticators).evaluate(.appPasscode, localizedReason: "Unlock")
            Issue.record("a wrong fifth entry must fail")
        } catch {
            #expect(error == .authenticationFailed)
            #expect(error.retryAfter == passcodes.clock.now().addingTimeInterval(60))
        }
    }

    @Test("SPEC A13: Completion variants reply on the main actor")
    @MainActor
    func replies() async throws {
        let passcode = PasscodeFixture().make()
        let set: Result<Void, AppPasscodeError> = await withCheckedContinuation { continuation in
            passcode.set(SecretBytes(utf8: "123456")) { result in
                MainActor.assertIsolated()
                continuation.resume(returning: result)
            }
        }
        #expect((try? set.get()) != nil)
        let verified: PasscodeVerification = await withCheckedContinuation { continuation in
            passcode.verify(SecretBytes(utf8: "123456")) { continuation.resume(returning: $0) }
        }
        #expect(verified == .accepted)
        let removed: Result<Void, AppPasscodeError> = await withCheckedContinuation { continuation in
            passcode.remove(current: SecretBytes(utf8: "000000")) { continuation.resume(returning: $0) }
        }
        #expect(throws: AppPasscodeError.wrongPasscode) { try removed.get() }
    }
}
