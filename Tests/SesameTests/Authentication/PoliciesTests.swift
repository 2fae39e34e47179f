import Sesame
import SesameTesting
import Testing

@Suite("SPEC A1: policies")
struct PoliciesTests {
    @Test("SPEC A1: biometrics succeeds on a match without asking for any passcode")
    func biometricsMatch() async {
        let fixture = TestMachine()
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics) == nil)
        #expect(fixture.presenter.secretRequests.isEmpty)
        #expect(fixture.devicePasscode.verifications == 0)
    }

    @Test("SPEC A1: biometrics never falls back to the device passcode")
    func biometricsNeverAsksPasscode() async {
        let fixture = TestMachine()
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        #expect(await fixture.outcome(.biometrics) == .authenticationFailed)
        #expect(fixture.presenter.secretRequests.isEmpty)
    }

    @Test("SPEC A1: the fallback button appears only after the first failed match and ends with userFallback")
    func biometricsFallback() async {
        let fixture = TestMachine()
        let context = fixture.context()
        context.fallbackTitle = "Use App Passcode"
        fixture.sensor.present(.noMatch)
        let evaluation = Task { await fixture.outcome(.biometrics, on: context) }
        while !fixture.presenter.messages.contains(.fallbackOffered(title: "Use App Passcode")) { await Task.yield() }
        #expect(fixture.presenter.messages.first == .notRecognized(attemptsLeft: 2))
        await fixture.sensor.waitUntilScanning()
        fixture.presenter.press(.fallback)
        #expect(await evaluation.value == .userFallback)
        #expect(fixture.presenter.secretRequests.isEmpty)
    }

    @Test("SPEC A1: deviceOwner asks for the device passcode after three failed matches")
    func deviceOwnerAfterFailures() async {
        let fixture = TestMachine()
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(await fixture.outcome(.deviceOwner) == nil)
        #expect(fixture.presenter.secretRequests.map(\.kind) == [.devicePasscode])
        #expect(fixture.presenter.secretRequests.first?.echo == false)
    }

    @Test("SPEC A1: deviceOwner's fallback button leads to the device passcode, not userFallback")
    func deviceOwnerFallbackButton() async {
        let fixture = TestMachine()
        fixture.sensor.present(.noMatch)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        let evaluation = Task { await fixture.outcome(.deviceOwner) }
        while fixture.presenter.messages.count < 2 { await Task.yield() }
        await fixture.sensor.waitUntilScanning()
        fixture.presenter.press(.fallback)
        #expect(await evaluation.value == nil)
        #expect(fixture.devicePasscode.verifications == 1)
    }

    @Test("SPEC A1: deviceOwner goes straight to the passcode when biometrics is locked out, unavailable or not enrolled",
          arguments: ["lockedOut", "unplugged", "notEnrolled", "noSensor"])
    func deviceOwnerWithoutBiometrics(condition: String) async {
        let fixture = TestMachine(withSensor: condition != "noSensor")
        switch condition {
        case "lockedOut": fixture.sensor.setLockedOut(true)
        case "unplugged": fixture.sensor.unplug()
        case "notEnrolled": fixture.sensor.unenrolAll()
        default: break
        }
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(await fixture.outcome(.deviceOwner) == nil)
        #expect(fixture.sensor.scansStarted == 0)
        #expect(fixture.devicePasscode.verifications == 1)
    }

    @Test("SPEC A1: deviceOwner fails only when both biometrics and the passcode fail")
    func deviceOwnerBothFail() async {
        let fixture = TestMachine()
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        fixture.presenter.answerSecrets(.enter("wrong"), .enter("wrong"), .enter("wrong"))
        #expect(await fixture.outcome(.deviceOwner) == .authenticationFailed)
        #expect(fixture.presenter.messages.contains(.wrongPasscode(attemptsLeft: 1)))
        #expect(fixture.devicePasscode.verifications == 3)
    }

    @Test("SPEC A1: deviceOwner with neither biometrics nor a passcode is passcodeNotSet")
    func deviceOwnerNeither() async {
        let fixture = TestMachine(devicePasscode: nil, withSensor: false)
        #expect(await fixture.outcome(.deviceOwner) == .passcodeNotSet)
        #expect(await fixture.readiness(.deviceOwner) == .passcodeNotSet)
    }

    @Test("SPEC A1: appPasscode uses only the app's passcode")
    func appPasscode() async {
        let fixture = TestMachine()
        fixture.presenter.answerSecrets(.enter("wrong"), .enter("app-0000"))
        #expect(await fixture.outcome(.appPasscode) == nil)
        #expect(fixture.sensor.claimsMade == 0)
        #expect(fixture.presenter.secretRequests.map(\.kind) == [.appPasscode, .appPasscode])
        #expect(fixture.devicePasscode.verifications == 0)
    }

    @Test("SPEC A1: appPasscode fails after three wrong entries")
    func appPasscodeWrong() async {
        let fixture = TestMachine()
        fixture.presenter.answerSecrets(.enter("1"), .enter("2"), .enter("3"))
        #expect(await fixture.outcome(.appPasscode) == .authenticationFailed)
    }
}
