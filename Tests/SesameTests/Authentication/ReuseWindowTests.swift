import Sesame
import SesameTesting
import Testing

@Suite("SPEC A6: the reuse window")
struct ReuseWindowTests {
    @Test("SPEC A6: reuseDuration defaults to 0 and is clamped to 0…300", arguments: [
        (0.0, 0.0), (45.0, 45.0), (300.0, 300.0), (301.0, 300.0), (86_400.0, 300.0), (-5.0, 0.0), (Double.nan, 0.0),
    ])
    func clamping(value: Double, expected: Double) {
        let context = TestMachine().context()
        #expect(context.reuseDuration == 0)
        context.reuseDuration = value
        #expect(context.reuseDuration == expected)
    }

    @Test("SPEC A6: within the window the evaluation succeeds at once without prompting")
    func reuse() async {
        let fixture = TestMachine()
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics) == nil)
        fixture.clock.advance(by: 59)
        let context = fixture.context()
        context.reuseDuration = 60
        #expect(await fixture.outcome(.biometrics, on: context) == nil)
        #expect(await fixture.outcome(.deviceOwner, on: context) == nil)
        #expect(fixture.sensor.scansStarted == 1)
        #expect(fixture.presenter.prompts.count == 1)
    }

    @Test("SPEC A6: with the default of 0 every evaluation prompts")
    func zeroPrompts() async {
        let fixture = TestMachine()
        fixture.sensor.present(.match, .match)
        #expect(await fixture.outcome(.biometrics) == nil)
        #expect(await fixture.outcome(.biometrics) == nil)
        #expect(fixture.sensor.scansStarted == 2)
    }

    @Test("SPEC A6: after the window, or with a clock set back, or after an enrolment change, it prompts again",
          arguments: ["expired", "clockBack", "enrolment"])
    func windowEnds(condition: String) async {
        let fixture = TestMachine()
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics) == nil)
        switch condition {
        case "expired": fixture.clock.advance(by: 61)
        case "clockBack": fixture.clock.advance(by: -10)
        default: fixture.sensor.enrol("left-thumb")
        }
        let context = fixture.context()
        context.reuseDuration = 60
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics, on: context) == nil)
        #expect(fixture.sensor.scansStarted == 2)
    }

    @Test("SPEC A6: a passcode success is not a biometric success to reuse")
    func passcodeNotReused() async {
        let fixture = TestMachine(withSensor: true)
        fixture.sensor.setLockedOut(true)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(await fixture.outcome(.deviceOwner) == nil)
        let context = fixture.context()
        context.reuseDuration = 300
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics, on: context) == nil)
        #expect(fixture.sensor.scansStarted == 1)
    }
}
