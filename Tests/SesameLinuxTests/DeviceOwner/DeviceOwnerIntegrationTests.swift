#if os(Linux)
import Foundation
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

private typealias Support = FprintdTestSupport

/// `deviceOwner` with the real fprintd (virtual reader) and real PAM
/// (pam_pwdfile in a private configuration directory) together.
@Suite(
    "deviceOwner: real fprintd + real PAM",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty, fprintdMissingNote),
    .enabled(if: PAMTestEnvironment.isPwdfileInstalled, PAMTestEnvironment.skipReason),
    .fprintdHarness(enrolling: [("right-index-finger", "owner")])
)
struct DeviceOwnerIntegrationTests {
    private func machine(_ harness: FprintdHarness?, _ pam: PAMTestEnvironment, attempts: any AttemptStore = InMemoryAttemptStore())
        throws -> (Authenticators, RecordingPresenter)
    {
        try pam.addPasswordService()
        let presenter = RecordingPresenter(hasButtons: false)
        let sensor = harness.map { Support.sensor($0) }
        let authenticators = Authenticators(
            appName: "SesameTests", sensor: sensor, devicePasscode: try pam.verifier(), presenter: presenter, attempts: attempts)
        return (authenticators, presenter)
    }

    private func evaluate(_ policy: AuthenticationPolicy, _ authenticators: Authenticators) -> Task<AuthenticationError?, Never> {
        let context = AuthenticationContext(authenticators)
        return Task { await Support.error { () async throws(AuthenticationError) in
            try await context.evaluate(policy, localizedReason: "Pay 20 EUR")
        } }
    }

    @Test("SPEC A1, A4: five bad scans lock the fingerprint out; the login password unlocks and clears the lockout")
    func lockoutThenPasscode() async throws {
        let harness = try Support.harness
        let pam = try PAMTestEnvironment()
        defer { pam.remove() }
        let (authenticators, presenter) = try machine(harness, pam)

        let first = evaluate(.biometrics, authenticators)
        try await Support.scanWhenVerifying(harness, presenter, "stranger")
        for attempt in 2...3 {
            try await Support.waitUntil("no-match \(attempt - 1)") { presenter.notRecognizedCount == attempt - 1 }
            try await harness.scan("stranger")
        }
        #expect(await Support.value(of: first)?.code == .authenticationFailed)
        let second = evaluate(.biometrics, authenticators)
        try await Support.scanWhenVerifying(harness, presenter, "stranger")
        try await Support.waitUntil("no-match 4") { presenter.notRecognizedCount == 3 }
        try await harness.scan("stranger")
        #expect(await Support.value(of: second)?.code == .biometryLockout)

        // Locked out: deviceOwner goes straight to PAM; the right password clears the lockout.
        presenter.answerSecrets(.enter(PAMTestEnvironment.password))
        #expect(await Support.value(of: evaluate(.deviceOwner, authenticators)) == nil)
        #expect(presenter.secretRequests.map(\.kind) == [.devicePasscode])
        #expect(presenter.secretRequests.first?.prompt == "Password: ", "PAM's own question reaches the presenter")

        let fingerprintAgain = evaluate(.biometrics, authenticators)
        try await Support.scanWhenVerifying(harness, presenter, "owner")
        #expect(await Support.value(of: fingerprintAgain) == nil)
    }

    @Test("SPEC A1: after three stranger scans deviceOwner asks PAM; a wrong password too fails the policy")
    func failedScansThenPasscode() async throws {
        let harness = try Support.harness
        let pam = try PAMTestEnvironment()
        defer { pam.remove() }
        let (authenticators, presenter) = try machine(harness, pam)

        presenter.answerSecrets(.enter(PAMTestEnvironment.password))
        let accepted = evaluate(.deviceOwner, authenticators)
        try await Support.scanWhenVerifying(harness, presenter, "stranger")
        for attempt in 2...3 {
            try await Support.waitUntil("no-match \(attempt - 1)") { presenter.notRecognizedCount == attempt - 1 }
            try await harness.scan("stranger")
        }
        #expect(await Support.value(of: accepted) == nil)

        presenter.answerSecrets(.enter("wrong"), .enter("wrong again"), .enter("still wrong"))
        let rejected = evaluate(.deviceOwner, authenticators)
        try await Support.scanWhenVerifying(harness, presenter, "stranger")
        for attempt in 2...3 {
            try await Support.waitUntil("no-match \(2 + attempt)") { presenter.notRecognizedCount == 1 + attempt }
            try await harness.scan("stranger")
        }
        #expect(await Support.value(of: rejected)?.code == .authenticationFailed)
    }

    @Test("SPEC A1, D1: with no reader at all deviceOwner falls straight to the login password")
    func noSensor() async throws {
        let bare = try await FprintdHarness.start(FprintdHarness.Options(virtualDevice: false))
        defer { bare.stop() }
        let pam = try PAMTestEnvironment()
        defer { pam.remove() }
        let (authenticators, presenter) = try machine(bare, pam)

        let context = AuthenticationContext(authenticators)
        let biometrics = await Support.error { () async throws(AuthenticationError) in try await context.canEvaluate(.biometrics) }
        #expect(biometrics?.code == .biometryNotAvailable)
        #expect(biometrics?.reason?.kind == .noSensor)

        presenter.answerSecrets(.enter(PAMTestEnvironment.password))
        #expect(await Support.value(of: evaluate(.deviceOwner, authenticators)) == nil)
        #expect(presenter.secretRequests.count == 1)
    }

    @Test("SPEC E3: wrong login passwords are delayed by Sesame, and the delay survives a restart")
    func backoffSurvivesRestart() async throws {
        let pam = try PAMTestEnvironment()
        defer { pam.remove() }
        let attemptsPath = pam.root.appendingPathComponent("state/attempts.json").path
        let (authenticators, presenter) = try machine(nil, pam, attempts: FileAttemptStore(path: attemptsPath))
        presenter.answerSecrets(.enter("1"), .enter("2"), .enter("3"))
        #expect(await evaluate(.deviceOwner, authenticators).value?.code == .authenticationFailed)
        presenter.answerSecrets(.enter("4"), .enter("5"))
        let delayed = await evaluate(.deviceOwner, authenticators).value
        #expect(delayed?.code == .authenticationFailed)
        let retryAfter = try #require(delayed?.retryAfter)
        #expect(retryAfter.timeIntervalSinceNow > 50 && retryAfter.timeIntervalSinceNow <= 60)

        // A new process: nothing in memory, only the file. Even the right
        // password is not taken while the delay runs; PAM is not asked.
        let (restarted, restartedPresenter) = try machine(nil, pam, attempts: FileAttemptStore(path: attemptsPath))
        restartedPresenter.answerSecrets(.enter(PAMTestEnvironment.password))
        #expect(await evaluate(.deviceOwner, restarted).value?.retryAfter != nil)
        #expect(restartedPresenter.secretRequests.isEmpty)
    }
}
#endif
