import Sesame
import SesameTesting
import Testing

@Suite("SPEC A2: canEvaluate")
struct CanEvaluateTests {
    @Test("SPEC A2: every policy can be evaluated on a ready machine, without any prompt")
    func ready() async {
        let fixture = TestMachine()
        for policy in AuthenticationPolicy.allCases {
            #expect(await fixture.readiness(policy) == nil)
        }
        #expect(fixture.presenter.events.isEmpty)
        #expect(fixture.sensor.claimsMade == 0)
    }

    @Test("SPEC A2: biometryNotAvailable carries the reason: no sensor configured")
    func noSensor() async {
        let fixture = TestMachine(withSensor: false)
        let error = await fixture.readiness(.biometrics)
        #expect(error == .biometryNotAvailable)
        #expect(error?.reason?.kind == .noSensor)
        #expect(error?.message.contains("No biometric sensor") == true)
    }

    @Test("SPEC A2: biometryNotAvailable when the sensor is unplugged")
    func unplugged() async {
        let fixture = TestMachine()
        fixture.sensor.unplug()
        #expect(await fixture.readiness(.biometrics) == .biometryNotAvailable)
    }

    @Test("SPEC A2: biometryNotEnrolled when nothing is enrolled")
    func notEnrolled() async {
        let fixture = TestMachine()
        fixture.sensor.unenrolAll()
        #expect(await fixture.readiness(.biometrics) == .biometryNotEnrolled)
    }

    @Test("SPEC A2: biometryLockout from the sensor's own lockout and from Sesame's")
    func lockout() async {
        let sensorLocked = TestMachine()
        sensorLocked.sensor.setLockedOut(true)
        #expect(await sensorLocked.readiness(.biometrics) == .biometryLockout)

        let sesameLocked = TestMachine()
        _ = await sesameLocked.lockOut()
        #expect(await sesameLocked.readiness(.biometrics) == .biometryLockout)
        // The passcode can still carry deviceOwner.
        #expect(await sesameLocked.readiness(.deviceOwner) == nil)
    }

    @Test("SPEC A2: passcodeNotSet for appPasscode without an app passcode, and for deviceOwner without any authenticator")
    func passcodeNotSet() async {
        let fixture = TestMachine(devicePasscode: nil, appPasscode: nil)
        #expect(await fixture.readiness(.appPasscode) == .passcodeNotSet)
        fixture.sensor.unenrolAll()
        let error = await fixture.readiness(.deviceOwner)
        #expect(error == .passcodeNotSet)
        #expect(error?.reason?.kind == .notConfigured)
    }

    @Test("SPEC A2: the device passcode's own reason is passed on")
    func passcodeOutage() async {
        let fixture = TestMachine(withSensor: false)
        fixture.devicePasscode.setOutage(UnavailableReason(.notConfigured, "PAM service 'sesame' is not configured"))
        let error = await fixture.readiness(.deviceOwner)
        #expect(error == .passcodeNotSet)
        #expect(error?.message.contains("PAM service 'sesame' is not configured") == true)
    }
}
