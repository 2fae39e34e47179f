import Foundation
import Sesame
import SesameTesting
import Testing

@Suite("SPEC A4/E3: device passcode back-off")
struct PasscodeBackoffTests {
    /// Five wrong passcodes over two prompts (3 + 2): the fifth starts the 1 min delay.
    private func failFive(_ fixture: TestMachine) async -> AuthenticationError? {
        fixture.presenter.answerSecrets(.enter("1"), .enter("2"), .enter("3"))
        _ = await fixture.outcome(.deviceOwner)
        fixture.presenter.answerSecrets(.enter("4"), .enter("5"))
        return await fixture.outcome(.deviceOwner)
    }

    @Test("SPEC E3: the fifth wrong device passcode starts a one-minute delay; no prompt while it runs")
    func delayStarts() async throws {
        let fixture = TestMachine(withSensor: false)
        let error = try #require(await failFive(fixture))
        #expect(error == .authenticationFailed)
        #expect(error.retryAfter == fixture.clock.now().addingTimeInterval(60))
        #expect(fixture.devicePasscode.verifications == 5, "the sixth entry was never taken")

        fixture.presenter.answerSecrets(.enter("device-1234"))
        let during = await fixture.outcome(.deviceOwner)
        #expect(during == .authenticationFailed)
        #expect(fixture.devicePasscode.verifications == 5)
        #expect(fixture.presenter.secretRequests.count == 5)

        fixture.clock.advance(by: 61)
        #expect(await fixture.outcome(.deviceOwner) == nil)
    }

    @Test("SPEC E3: a right passcode resets the count")
    func successResets() async {
        let fixture = TestMachine(withSensor: false)
        fixture.presenter.answerSecrets(.enter("1"), .enter("2"), .enter("device-1234"))
        #expect(await fixture.outcome(.deviceOwner) == nil)
        fixture.presenter.answerSecrets(.enter("1"), .enter("2"), .enter("3"))
        #expect(await fixture.outcome(.deviceOwner)?.retryAfter == nil, "three failures after a reset start no delay")
    }

    @Test("SPEC E3: setting the clock back does not shorten a delay")
    func clockBack() async {
        let fixture = TestMachine(withSensor: false)
        _ = await failFive(fixture)
        fixture.clock.advance(by: -3600)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(await fixture.outcome(.deviceOwner) == .authenticationFailed)
        fixture.clock.advance(by: 30)
        #expect(await fixture.outcome(.deviceOwner) == .authenticationFailed)
        fixture.clock.advance(by: 31)
        #expect(await fixture.outcome(.deviceOwner) == nil)
    }

    @Test("SPEC E3: the delay survives a restart: a new process reads it from the file")
    func survivesRestart() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/state/attempts.json"
        let first = TestMachine(withSensor: false, attempts: FileAttemptStore(path: path))
        _ = await failFive(first)

        // A new process on the same machine: new store, new context, same
        // file, the same clocks (a new boot is AttemptGateClockTests' case).
        let restarted = TestMachine(withSensor: false, attempts: FileAttemptStore(path: path), clock: first.clock)
        restarted.clock.advance(by: 10)
        restarted.presenter.answerSecrets(.enter("device-1234"))
        let error = await restarted.outcome(.deviceOwner)
        #expect(error == .authenticationFailed)
        #expect(error?.retryAfter != nil)
        #expect(restarted.devicePasscode.verifications == 0)
    }

    @Test("SPEC A4: biometric lockout survives a restart through the file store")
    func lockoutSurvivesRestart() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/attempts.json"
        let first = TestMachine(attempts: FileAttemptStore(path: path))
        #expect(await first.lockOut() == .biometryLockout)
        let restarted = TestMachine(attempts: FileAttemptStore(path: path))
        #expect(await restarted.readiness(.biometrics) == .biometryLockout)
    }
}
