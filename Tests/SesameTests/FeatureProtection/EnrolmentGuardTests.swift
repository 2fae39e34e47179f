import Sesame
import SesameTesting
import Testing

@Suite("SPEC C: the enrolment-change guard")
struct EnrolmentGuardTests {
    @Test("SPEC C1: enabling records the enrolment; access under it needs no extra verification")
    func recorded() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")
        fixture.sensor.present(.match)
        try await protection.authenticate("transfer", reason: "Pay")
        #expect(fixture.verifications.count == 0)
    }

    @Test("SPEC C2: after an enrolment change the match is not trusted; the app's verification must succeed")
    func enrolmentChanged() async throws {
        let fixture = ProtectionFixture()
        try await fixture.protection().enable("transfer")
        fixture.sensor.enrol("intruder-finger")

        fixture.sensor.present(.match)
        let refused = await outcome { () async throws(FeatureProtectionError) in
            try await fixture.protection(verifies: false).authenticate("transfer", reason: "Pay")
        }
        #expect(refused?.name == "enrolmentChanged")
        #expect(fixture.verifications.count == 1)
    }

    @Test("SPEC C2: detection is durable: it does not wear off by being seen once")
    func durable() async throws {
        let fixture = ProtectionFixture()
        try await fixture.protection().enable("transfer")
        fixture.sensor.enrol("intruder-finger")
        for _ in 1...3 {
            fixture.sensor.present(.match)
            let refused = await outcome { () async throws(FeatureProtectionError) in
                try await fixture.protection(verifies: false).authenticate("transfer", reason: "Pay")
            }
            #expect(refused?.name == "enrolmentChanged")
        }
        #expect(fixture.verifications.count == 3)
    }

    @Test("SPEC C2: without any verification configured an enrolment change fails closed")
    func noVerification() async throws {
        let fixture = ProtectionFixture()
        try await fixture.protection(verifies: nil).enable("transfer")
        fixture.sensor.unenrol("right-index-finger")
        fixture.sensor.enrol("left-thumb")
        fixture.sensor.present(.match)
        let refused = await outcome { () async throws(FeatureProtectionError) in
            try await fixture.protection(verifies: nil).authenticate("transfer", reason: "Pay")
        }
        #expect(refused?.name == "enrolmentChanged")
    }

    @Test("SPEC C3: after the verification succeeds the new enrolment is recorded")
    func reRecorded() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")
        fixture.sensor.enrol("new-finger")
        fixture.sensor.present(.match)
        try await protection.authenticate("transfer", reason: "Pay")
        #expect(fixture.verifications.count == 1)
        fixture.sensor.present(.match)
        try await fixture.protection().authenticate("transfer", reason: "Pay")
        #expect(fixture.verifications.count == 1, "the new enrolment is trusted after the owner proved it")
    }

    @Test("SPEC C2: the app passcode as the app's own verification")
    func appPasscodeVerification() async throws {
        let fixture = ProtectionFixture()
        let protection = FeatureProtection(appIdentifier: "com.example.money", authenticators: fixture.machine.authenticators,
                                           store: fixture.store, deviceKeys: fixture.keys, ownerVerification: .appPasscode)
        try await protection.enable("transfer")
        fixture.sensor.enrol("new-finger")
        fixture.sensor.present(.match)
        fixture.presenter.answerSecrets(.enter("wrong"), .enter("wrong"), .enter("wrong"))
        #expect(await outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("transfer", reason: "Pay") }?.name == "enrolmentChanged")
        fixture.sensor.present(.match)
        fixture.presenter.answerSecrets(.enter("app-0000"))
        try await protection.authenticate("transfer", reason: "Pay")
    }

    @Test("SPEC C2: a sensor that cannot report its enrolment is not trusted blindly, and nothing crashes")
    func missingDomainState() async throws {
        let sensor = SimulatedSensor()
        let machine = TestMachine(sensor: sensor)
        let blind = Authenticators(appName: "Blind", sensor: NoDomainStateSensor(base: sensor), presenter: machine.presenter)
        let fixture = ProtectionFixture(machine: machine)
        let protection = FeatureProtection(appIdentifier: "blind", authenticators: blind, store: fixture.store,
                                           deviceKeys: fixture.keys, ownerVerification: .custom { _ in false })
        try await protection.enable("transfer")
        sensor.present(.match)
        let refused = await outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("transfer", reason: "Pay") }
        #expect(refused?.name == "enrolmentChanged")
    }

    @Test("SPEC C4: the recorded enrolment persists with the record")
    func persisted() async throws {
        let fixture = ProtectionFixture()
        try await fixture.protection().enable("transfer")
        // A relaunch with a changed enrolment still notices.
        fixture.sensor.enrol("intruder-finger")
        fixture.sensor.present(.match)
        _ = await outcome { () async throws(FeatureProtectionError) in try await fixture.protection().authenticate("transfer", reason: "Pay") }
        #expect(fixture.verifications.count == 1)
    }
}

/// A sensor whose platform does not report a domain state.
private struct NoDomainStateSensor: BiometricSensor {
    let base: SimulatedSensor
    func currentState() async -> BiometricSensorState {
        var state = await base.currentState()
        state.domainState = nil
        return state
    }
    func claim() async throws(BiometricSensorError) -> any BiometricClaim { try await base.claim() }
}
