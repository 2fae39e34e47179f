import Sesame
import SesameTesting
import Testing

@Suite("SPEC A4: failure counting and lockout")
struct FailureCountingTests {
    @Test("SPEC A4: a prompt gives up after three non-matching scans")
    func threePerPrompt() async {
        let fixture = TestMachine()
        fixture.sensor.present(.noMatch, .noMatch, .noMatch, .match)
        #expect(await fixture.outcome(.biometrics) == .authenticationFailed)
        #expect(fixture.sensor.scansStarted == 3)
        #expect(fixture.presenter.messages.filter { if case .notRecognized = $0 { true } else { false } }
            == [.notRecognized(attemptsLeft: 2), .notRecognized(attemptsLeft: 1)])
    }

    @Test("SPEC A4: retry hints do not count as failures")
    func hintsDoNotCount() async {
        let fixture = TestMachine()
        fixture.sensor.present(.hint(.fingerNotCentered), .hint(.retryScan), .hint(.swipeTooShort), .hint(.removeAndRetry), .match)
        #expect(await fixture.outcome(.biometrics) == nil)
        #expect(fixture.presenter.messages == [.hint(.fingerNotCentered), .hint(.retryScan), .hint(.swipeTooShort), .hint(.removeAndRetry)])
    }

    @Test("SPEC A4: five consecutive non-matches across prompts lock biometrics out")
    func lockoutAcrossPrompts() async {
        let fixture = TestMachine()
        #expect(await fixture.lockOut() == .biometryLockout)
        fixture.sensor.present(.match)
        // Locked out even though the next finger would match, and in a new context.
        #expect(await fixture.outcome(.biometrics) == .biometryLockout)
        #expect(fixture.sensor.scansStarted == 5)
    }

    @Test("SPEC A4: a match resets the consecutive count")
    func matchResets() async {
        let fixture = TestMachine()
        fixture.sensor.present(.noMatch, .noMatch, .match)
        #expect(await fixture.outcome(.biometrics) == nil)
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        #expect(await fixture.outcome(.biometrics) == .authenticationFailed)
    }

    @Test("SPEC A4: a successful deviceOwner evaluation clears the lockout")
    func passcodeClearsLockout() async {
        let fixture = TestMachine()
        _ = await fixture.lockOut()
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(await fixture.outcome(.deviceOwner) == nil)
        #expect(fixture.sensor.scansStarted == 5, "deviceOwner went straight to the passcode")
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics) == nil)
    }

    @Test("SPEC A4: a failed passcode or the app passcode does not clear the lockout")
    func otherSuccessesDoNotClear() async {
        let fixture = TestMachine()
        _ = await fixture.lockOut()
        fixture.presenter.answerSecrets(.enter("x"), .enter("y"), .enter("z"), .enter("app-0000"))
        #expect(await fixture.outcome(.deviceOwner) == .authenticationFailed)
        #expect(await fixture.outcome(.appPasscode) == nil)
        #expect(await fixture.readiness(.biometrics) == .biometryLockout)
    }

    @Test("SPEC A4: the passcode also lifts a lockout the sensor keeps itself")
    func sensorLockoutLifted() async {
        let fixture = TestMachine()
        fixture.sensor.setLockedOut(true)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(await fixture.outcome(.deviceOwner) == nil)
        #expect(!fixture.sensor.isLockedOut)
    }

    @Test("SPEC A4: the history is read from the attempt store; an unreadable store fails closed")
    func failingStore() async {
        let fixture = TestMachine(attempts: BrokenAttemptStore())
        fixture.sensor.present(.match)
        let error = await fixture.outcome(.biometrics)
        #expect(error == .biometryNotAvailable)
        #expect(error?.reason?.kind == .stateUnavailable)
    }
}

private struct BrokenAttemptStore: AttemptStore {
    struct Broken: Error {}
    func read() async throws -> AttemptRecord { throw Broken() }
    func update(_ change: @Sendable (inout AttemptRecord) -> Void) async throws -> AttemptRecord { throw Broken() }
}
