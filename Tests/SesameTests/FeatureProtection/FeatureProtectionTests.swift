import Sesame
import SesameTesting
import Testing

@Suite("SPEC B: feature protection")
struct FeatureProtectionTests {
    @Test("SPEC B1: available when biometrics can be evaluated now", arguments: ["ready", "unplugged", "notEnrolled", "noSensor"])
    func available(condition: String) async {
        let fixture = ProtectionFixture(machine: TestMachine(withSensor: condition != "noSensor"))
        if condition == "unplugged" { fixture.sensor.unplug() }
        if condition == "notEnrolled" { fixture.sensor.unenrolAll() }
        #expect(await fixture.protection().isAuthenticationAvailable == (condition == "ready"))
    }

    @Test("SPEC B2: enabled means available and the stored flag on")
    func enabled() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        #expect(await !protection.isAuthenticationEnabled("transfer"))
        try await protection.enable("transfer")
        #expect(await protection.isAuthenticationEnabled("transfer"))
        #expect(await !protection.isAuthenticationEnabled("settings"))
        fixture.sensor.unplug()
        #expect(await !protection.isAuthenticationEnabled("transfer"))
    }

    @Test("SPEC B3: enabling needs no scan, succeeds at once when already on, fails when biometrics is unavailable")
    func enable() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")
        try await protection.enable("transfer")
        #expect(fixture.sensor.claimsMade == 0)
        #expect(fixture.presenter.events.isEmpty)

        fixture.sensor.unplug()
        #expect(await outcome { () async throws(FeatureProtectionError) in try await protection.enable("chat") }?.name == "unavailable")
    }

    @Test("SPEC B4: disabling a protected feature needs a biometric match; an intruder cannot switch it off")
    func disable() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")

        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        let refused = await outcome { () async throws(FeatureProtectionError) in try await protection.disable("transfer", reason: "Turn off") }
        #expect(refused?.name == "authenticationFailed(authenticationFailed)")
        #expect(await protection.isAuthenticationEnabled("transfer"))

        fixture.sensor.present(.match)
        try await protection.disable("transfer", reason: "Turn off")
        #expect(await !protection.isAuthenticationEnabled("transfer"))

        let scans = fixture.sensor.scansStarted
        try await protection.disable("transfer", reason: "Turn off")
        #expect(fixture.sensor.scansStarted == scans, "disabling an unprotected feature needs no scan")

        fixture.sensor.unplug()
        #expect(await outcome { () async throws(FeatureProtectionError) in try await protection.disable("transfer", reason: "x") }?.name == "unavailable")
    }

    @Test("SPEC B4, C2: after an enrolment change, switching protection off also needs the app's verification")
    func disableAfterEnrolmentChange() async throws {
        let fixture = ProtectionFixture()
        try await fixture.protection().enable("transfer")
        fixture.sensor.enrol("intruder-finger")
        fixture.sensor.present(.match)
        let refused = await outcome { () async throws(FeatureProtectionError) in
            try await fixture.protection(verifies: false).disable("transfer", reason: "Turn off")
        }
        #expect(refused?.name == "enrolmentChanged")
        #expect(await fixture.protection().isAuthenticationEnabled("transfer"))
    }

    @Test("SPEC B5: an unprotected feature passes at once without a prompt, even with no sensor")
    func unprotected() async throws {
        let fixture = ProtectionFixture(machine: TestMachine(withSensor: false))
        try await fixture.protection().authenticate("settings", reason: "Open settings")
        #expect(fixture.presenter.events.isEmpty)
    }

    @Test("SPEC B5: a protected feature needs a match")
    func protected() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")
        fixture.sensor.present(.match)
        try await protection.authenticate("transfer", reason: "Send 20 EUR")
        #expect(fixture.sensor.scansStarted == 1)
        #expect(fixture.presenter.prompts.first?.reason == "Send 20 EUR")
        #expect(fixture.presenter.prompts.first?.fallbackTitle == nil, "biometrics only: no fallback button")

        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        let failed = await outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("transfer", reason: "Send") }
        #expect(failed?.name == "authenticationFailed(authenticationFailed)")
    }

    @Test("SPEC B5: when biometrics is gone, a protected feature uses its fallback or fails closed",
          arguments: [FeatureProtectionPolicy.biometrics, .biometricsOrDevicePasscode, .biometricsOrAppPasscode])
    func biometricsGone(policy: FeatureProtectionPolicy) async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer", policy: policy)
        fixture.sensor.unplug()
        fixture.presenter.answerSecrets(.enter(policy == .biometricsOrAppPasscode ? "app-0000" : "device-1234"))
        let result = await outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("transfer", reason: "Send") }
        switch policy {
        case .biometrics:
            #expect(result?.name == "unavailable")
            #expect(fixture.presenter.secretRequests.isEmpty)
        case .biometricsOrDevicePasscode:
            #expect(result == nil)
            #expect(fixture.presenter.secretRequests.map(\.kind) == [.devicePasscode])
        case .biometricsOrAppPasscode:
            #expect(result == nil)
            #expect(fixture.presenter.secretRequests.map(\.kind) == [.appPasscode])
        }
    }

    @Test("SPEC B5: the fallback with no passcode configured fails closed")
    func fallbackWithoutPasscode() async throws {
        let fixture = ProtectionFixture(machine: TestMachine(devicePasscode: nil))
        let protection = fixture.protection()
        try await protection.enable("transfer", policy: .biometricsOrDevicePasscode)
        fixture.sensor.unplug()
        let result = await outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("transfer", reason: "Send") }
        #expect(result?.name == "unavailable")
    }

    @Test("SPEC B5: the fallback button leads to the policy's fallback")
    func fallbackButton() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("chat", policy: .biometricsOrAppPasscode)
        fixture.sensor.present(.noMatch)
        fixture.presenter.answerSecrets(.enter("app-0000"))
        let run = Task { await outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("chat", reason: "Open chat") } }
        while !fixture.presenter.messages.contains(.fallbackOffered(title: "Enter App Passcode")) { await Task.yield() }
        await fixture.sensor.waitUntilScanning()
        fixture.presenter.press(.fallback)
        #expect(await run.value == nil)
        #expect(fixture.presenter.secretRequests.map(\.kind) == [.appPasscode])
    }

    @Test("SPEC B3: weakening a protected feature's policy needs the current check")
    func policyChange() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer", policy: .biometrics)
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        let refused = await outcome { () async throws(FeatureProtectionError) in
            try await protection.enable("transfer", policy: .biometricsOrDevicePasscode)
        }
        #expect(refused != nil)
        #expect(try await protection.protectionPolicy(for: "transfer") == .biometrics)
        fixture.sensor.present(.match)
        try await protection.enable("transfer", policy: .biometricsOrDevicePasscode)
        #expect(try await protection.protectionPolicy(for: "transfer") == .biometricsOrDevicePasscode)
    }

    @Test("SPEC B6: flags persist across launches, one namespaced record per app")
    func persistence() async throws {
        let fixture = ProtectionFixture()
        try await fixture.protection(appIdentifier: "com.example.money").enable("transfer")
        let relaunched = fixture.protection(appIdentifier: "com.example.money")
        #expect(await relaunched.isAuthenticationEnabled("transfer"))
        #expect(await !fixture.protection(appIdentifier: "com.example.chat").isAuthenticationEnabled("transfer"))
    }

    @Test("SPEC B6, C4: the stored record is sealed: no flag or domain state in the clear; a flipped byte is detected and treated as protected")
    func tampering() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")
        var bytes = try #require(fixture.store.storedBytes(for: "com.example.money"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("transfer"))
        let state = try #require(await fixture.sensor.currentState().domainState)
        #expect(!bytes.indices.contains { Array(bytes[$0...].prefix(8)) == Array(state.bytes.prefix(8)) })

        bytes[bytes.count / 2] ^= 0x01
        fixture.store.overwrite(bytes, for: "com.example.money")
        #expect(await protection.isAuthenticationEnabled("settings"), "a tampered record protects every feature")
        #expect(await outcome { () async throws(FeatureProtectionError) in _ = try await protection.protectionPolicy(for: "transfer") }?.name == "recordTampered")
        #expect(await outcome { () async throws(FeatureProtectionError) in try await protection.disable("transfer", reason: "x") }?.name == "recordTampered")

        fixture.sensor.present(.match)
        try await protection.authenticate("settings", reason: "Open settings")
        #expect(fixture.verifications.count == 1, "no recorded enrolment is trusted: the app's verification ran")

        fixture.sensor.present(.match)
        try await protection.reset(reason: "Reset protection")
        #expect(await !protection.isAuthenticationEnabled("settings"))
    }

    @Test("SPEC B6: another app's record copied over this one's is detected")
    func swappedRecord() async throws {
        let fixture = ProtectionFixture()
        try await fixture.protection(appIdentifier: "com.example.chat").enable("chat")
        let chat = try #require(fixture.store.storedBytes(for: "com.example.chat"))
        fixture.store.overwrite(chat, for: "com.example.money")
        #expect(await outcome { () async throws(FeatureProtectionError) in
            _ = try await fixture.protection(appIdentifier: "com.example.money").protectionPolicy(for: "chat")
        }?.name == "recordTampered")
    }

    @Test("SPEC B5: One prompt at a time: concurrent calls for a feature share one prompt; other features wait their turn")
    func onePrompt() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")
        try await protection.enable("settings")
        async let first = outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("transfer", reason: "Pay") }
        async let second = outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("transfer", reason: "Pay") }
        async let other = outcome { () async throws(FeatureProtectionError) in try await protection.authenticate("settings", reason: "Settings") }
        await fixture.sensor.waitUntilScanning()
        fixture.sensor.present(.match)
        await fixture.sensor.waitUntilScanning()
        fixture.sensor.present(.match)
        let results = await [first, second, other]
        #expect(results.allSatisfy { $0 == nil })
        #expect(fixture.sensor.claimsMade == 2)
        let kinds = fixture.presenter.events.compactMap { event -> String? in
            switch event {
            case .began: "began"
            case .ended: "ended"
            default: nil
            }
        }
        #expect(kinds == ["began", "ended", "began", "ended"], "never two prompts at once")
    }

    @Test("SPEC A13: completion handlers reply on the main actor")
    func replies() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        let result: Bool = await withCheckedContinuation { continuation in
            protection.enable("transfer") { result in
                MainActor.preconditionIsolated()
                continuation.resume(returning: (try? result.get()) != nil)
            }
        }
        #expect(result)
    }
}

extension FeatureProtectionError: Equatable {
    public static func == (lhs: FeatureProtectionError, rhs: FeatureProtectionError) -> Bool { lhs.name == rhs.name }
}
