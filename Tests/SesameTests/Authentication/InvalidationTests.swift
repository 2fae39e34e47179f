import Sesame
import SesameTesting
import Testing

@Suite("SPEC A9-A10: invalidation and interaction")
struct InvalidationTests {
    @Test("SPEC A9: invalidate() cancels an evaluation in flight with appCancel and releases the sensor")
    func invalidateInFlight() async {
        let fixture = TestMachine()
        let context = fixture.context()
        let evaluation = Task { await fixture.outcome(.biometrics, on: context) }
        await fixture.sensor.waitUntilScanning()
        context.invalidate()
        #expect(await evaluation.value == .appCancel)
        #expect(fixture.sensor.scansCancelled == 1)
        #expect(fixture.sensor.activeClaims == 0)
        #expect(fixture.presenter.endings == [.appCancel])
    }

    @Test("SPEC A9: invalidate() during a passcode entry cancels it with appCancel")
    func invalidateDuringPasscode() async {
        let fixture = TestMachine(withSensor: false)
        fixture.presenter.answerSecrets(.waitForCancellation)
        let context = fixture.context()
        let evaluation = Task { await fixture.outcome(.deviceOwner, on: context) }
        while fixture.presenter.secretRequests.isEmpty { await Task.yield() }
        context.invalidate()
        #expect(await evaluation.value == .appCancel)
    }

    @Test("SPEC A9: any later use of an invalidated context fails with invalidContext")
    func laterUse() async {
        let fixture = TestMachine()
        let context = fixture.context()
        context.setCredential(SecretBytes(utf8: "secret"), type: .applicationPassword)
        context.invalidate()
        for policy in AuthenticationPolicy.allCases {
            #expect(await fixture.outcome(policy, on: context) == .invalidContext)
            #expect(await fixture.readiness(policy, on: context) == .invalidContext)
        }
        await #expect(throws: AuthenticationError.invalidContext) {
            try await context.evaluateAccessControl(.biometryAny, operation: .useItem, localizedReason: "x")
        }
        #expect(!context.isCredentialSet(.applicationPassword), "invalidate wipes credentials")
        #expect(!context.setCredential(SecretBytes(utf8: "again"), type: .applicationPassword))
        #expect(fixture.sensor.claimsMade == 0)
    }

    @Test("SPEC A10: with interactionNotAllowed an evaluation that needs a prompt fails with notInteractive",
          arguments: AuthenticationPolicy.allCases)
    func notInteractive(policy: AuthenticationPolicy) async {
        let fixture = TestMachine()
        let context = fixture.context()
        context.interactionNotAllowed = true
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(policy, on: context) == .notInteractive)
        #expect(fixture.sensor.claimsMade == 0)
        #expect(fixture.presenter.events.isEmpty)
    }

    @Test("SPEC A10: inside the reuse window no prompt is needed, so it succeeds")
    func reuseNeedsNoInteraction() async {
        let fixture = TestMachine()
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics) == nil)
        let context = fixture.context()
        context.interactionNotAllowed = true
        context.reuseDuration = 30
        #expect(await fixture.outcome(.biometrics, on: context) == nil)
    }

    @Test("SPEC A10: without a presenter, a passcode cannot be asked for: notInteractive")
    func noPresenter() async {
        let passcode = SimulatedPasscode("1234")
        let context = AuthenticationContext(Authenticators(appName: "Headless", devicePasscode: passcode))
        await #expect(throws: AuthenticationError.notInteractive) {
            try await context.evaluate(.deviceOwner, localizedReason: "x")
        }
    }
}
