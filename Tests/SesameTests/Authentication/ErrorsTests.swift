import Sesame
import SesameTesting
import Testing

@Suite("SPEC A3: the error set")
struct ErrorsTests {
    @Test("SPEC A3: codes are stable (LAError's numbers), identifiers and messages distinct")
    func stableCodes() {
        let expected: [AuthenticationError.Code: Int] = [
            .authenticationFailed: -1, .userCancel: -2, .userFallback: -3, .systemCancel: -4,
            .passcodeNotSet: -5, .biometryNotAvailable: -6, .biometryNotEnrolled: -7,
            .biometryLockout: -8, .appCancel: -9, .invalidContext: -10, .notInteractive: -1004,
        ]
        #expect(AuthenticationError.Code.allCases.count == 11)
        for code in AuthenticationError.Code.allCases {
            #expect(code.rawValue == expected[code])
            #expect(AuthenticationError(code).identifier == code.identifier)
            #expect(!code.message.isEmpty)
        }
        #expect(Set(AuthenticationError.Code.allCases.map(\.identifier)).count == 11)
        #expect(Set(AuthenticationError.Code.allCases.map(\.message)).count == 11)
        #expect(AuthenticationError.Code.biometryLockout.identifier == "biometryLockout")
    }

    @Test("SPEC A3: the message includes the reason")
    func messageWithReason() {
        let error = AuthenticationError.biometryNotAvailable(UnavailableReason(.serviceNotRunning, "fprintd is not running"))
        #expect(error.message == "Biometrics is not available: fprintd is not running")
        #expect(error.description.hasPrefix("biometryNotAvailable (-6)"))
    }

    @Test("SPEC A3: userCancel when the user presses Cancel during a scan")
    func userCancel() async {
        let fixture = TestMachine()
        let evaluation = Task { await fixture.outcome(.biometrics) }
        await fixture.sensor.waitUntilScanning()
        fixture.presenter.press(.cancel)
        #expect(await evaluation.value == .userCancel)
        #expect(fixture.sensor.scansCancelled == 1)
        #expect(fixture.sensor.activeClaims == 0)
        #expect(fixture.presenter.endings == [.userCancel])
    }

    @Test("SPEC A3: userCancel when the user cancels the passcode entry")
    func userCancelPasscode() async {
        let fixture = TestMachine(withSensor: false)
        fixture.presenter.answerSecrets(.cancel)
        #expect(await fixture.outcome(.deviceOwner) == .userCancel)
    }

    @Test("SPEC A3: errors a platform prompt reports itself", arguments: [
        (SimulatedScan.systemCancel, AuthenticationError.Code.systemCancel),
        (.userCancel, .userCancel),
        (.userFallback, .userFallback),
        (.disconnect, .biometryNotAvailable),
        (.hardwareError("sensor fault"), .biometryNotAvailable),
    ])
    func platformErrors(scan: SimulatedScan, code: AuthenticationError.Code) async {
        let fixture = TestMachine()
        fixture.sensor.present(scan)
        #expect(await fixture.outcome(.biometrics)?.code == code)
        #expect(fixture.sensor.activeClaims == 0)
    }

    @Test("SPEC A3: biometryNotAvailable when another program holds the sensor")
    func deviceBusy() async {
        let fixture = TestMachine()
        fixture.sensor.setBusy(true)
        let error = await fixture.outcome(.biometrics)
        #expect(error == .biometryNotAvailable)
        #expect(error?.reason?.kind == .deviceBusy)
    }

    @Test("SPEC A3: cancelling the calling task ends the evaluation with appCancel")
    func callerCancelled() async {
        let fixture = TestMachine()
        let evaluation = Task { await fixture.outcome(.biometrics) }
        await fixture.sensor.waitUntilScanning()
        evaluation.cancel()
        #expect(await evaluation.value == .appCancel)
        #expect(fixture.sensor.activeClaims == 0)
    }
}
