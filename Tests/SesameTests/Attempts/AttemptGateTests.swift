import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// The one attempt gate (SPEC E5) under the app passcode and the device
/// passcode; the vault's passcode slot has its own suite
/// (VaultPasscodeAttemptsTests) and the CLI's attacks theirs.
@Suite("SPEC E5: the attempt gate")
struct AttemptGateTests {
    /// A device passcode (as PAM) that notes what the attempt record said
    /// while it was checking.
    final class RecordingVerifier: DevicePasscodeVerifier {
        let attempts: any AttemptStore
        let seen = Locked<[Int]>([])
        init(attempts: any AttemptStore) { self.attempts = attempts }

        func currentState() async -> PasscodeState { .set }

        func verify(using conversation: any PasscodeConversation) async -> PasscodeVerification {
            guard case .entered(let entered) = await conversation.requestSecret(prompt: "Password: ", echo: false) else { return .cancelled }
            // Counted while in flight (settled wrong ones plus those being checked).
            let counted = (try? await attempts.read()).map { $0.consecutivePasscodeFailures + $0.passcodeAttemptsInFlight.count } ?? -1
            seen.withLock { $0.append(counted) }
            return entered.constantTimeEquals(SecretBytes(utf8: "right")) ? .accepted : .rejected
        }
    }

    @Test("SPEC E5: a device passcode is counted before PAM checks it; a cancelled prompt is given back; a right one clears the count")
    func devicePasscodeCountedFirst() async throws {
        let attempts = InMemoryAttemptStore()
        let verifier = RecordingVerifier(attempts: attempts)
        let presenter = RecordingPresenter()
        let authenticators = Authenticators(appName: "test", devicePasscode: verifier, presenter: presenter, clock: ManualClock(), attempts: attempts)
        presenter.answerSecrets(.enter("wrong"), .enter("right"))
        try await AuthenticationContext(authenticators).evaluate(.deviceOwner, localizedReason: "Test")
        #expect(verifier.seen.withLock { $0 } == [1, 2], "each entry was in the record before it was checked")
        #expect(try await attempts.read().consecutivePasscodeFailures == 0)

        presenter.answerSecrets(.cancel)
        await #expect(throws: AuthenticationError.self) {
            try await AuthenticationContext(authenticators).evaluate(.deviceOwner, localizedReason: "Test")
        }
        #expect(try await attempts.read().consecutivePasscodeFailures == 0, "nothing was checked, nothing stays counted")
    }

    @Test("SPEC E5: two AppPasscode instances on one file record (two processes' view) and twenty guesses at once: five are checked")
    func appPasscodeSharedRecord() async throws {
        let directory = try TemporaryDirectory()
        let store = FileAppRecordStore(directory: directory.path + "/passcodes", kind: .appPasscode)
        let clock = ManualClock()
        let cost = AppPasscodeCost(n: 1 << 8, r: 8, p: 1)
        let first = AppPasscode(appIdentifier: "app", store: store, cost: cost, clock: clock)
        let second = AppPasscode(appIdentifier: "app", store: store, cost: cost, clock: clock)
        try await first.set(SecretBytes(utf8: "123456"))
        let outcomes = await withTaskGroup(of: PasscodeVerification.self) { group in
            for number in 0..<20 {
                group.addTask { await (number.isMultiple(of: 2) ? first : second).verify(SecretBytes(utf8: "guess \(number)")) }
            }
            return await group.reduce(into: [PasscodeVerification]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0 == .rejected || { if case .delayed = $0 { true } else { false } }($0) })
        #expect(try await first.status()?.consecutiveFailures == 5, "only counted attempts were checked: 4 free and the 5th")
        guard case .delayed = await second.verify(SecretBytes(utf8: "123456")) else {
            Issue.record("the right passcode must be refused during the delay")
            return
        }
    }

    @Test("SPEC E5: An app passcode record asking for more scrypt memory than ScryptCost allows is refused, not run")
    func unboundedCostRefused() async throws {
        let store = InMemoryAppRecordStore()
        let passcode = AppPasscode(appIdentifier: "app", store: store, cost: AppPasscodeCost(n: 1 << 8, r: 8, p: 1), clock: ManualClock())
        try await passcode.set(SecretBytes(utf8: "123456"))
        let edited = String(decoding: store.storedBytes(for: "app") ?? [], as: UTF8.self)
            .replacingOccurrences(of: "\"n\":256", with: "\"n\":1073741824")
        #expect(edited.contains("1073741824"))
        store.overwrite(Array(edited.utf8), for: "app")
        guard case .unavailable = await passcode.verify(SecretBytes(utf8: "123456")) else {
            Issue.record("a 2^30 N must not be run")
            return
        }
        #expect(AppPasscodeCost(n: 1 << 30, r: 8, p: 1).scryptCost == nil)
        #expect(AppPasscodeCost.standard.scryptCost == .standard)
    }
}
