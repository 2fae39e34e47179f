import Sesame
import SesameTesting
import Testing

@Suite("FeatureProtection.protectedFeatures")
struct ProtectedFeaturesTests {
    @Test("SPEC B2, B6: lists exactly the protected features with their policies, without a prompt")
    func listing() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        #expect(try await protection.protectedFeatures().isEmpty)
        try await protection.enable("transfer", policy: .biometrics)
        try await protection.enable("chat", policy: .biometricsOrDevicePasscode)
        #expect(try await protection.protectedFeatures() == ["transfer": .biometrics, "chat": .biometricsOrDevicePasscode])

        fixture.sensor.present(.match)
        try await protection.disable("chat", reason: "Stop protecting chat")
        #expect(try await protection.protectedFeatures() == ["transfer": .biometrics])
        #expect(try await fixture.protection(appIdentifier: "com.example.other").protectedFeatures().isEmpty, "one record per app")
        #expect(fixture.presenter.prompts.count == 1, "only the disable prompted")
    }

    @Test("SPEC B6: a tampered record is reported, never listed as empty")
    func tampered() async throws {
        let fixture = ProtectionFixture()
        let protection = fixture.protection()
        try await protection.enable("transfer")
        var bytes = try #require(fixture.store.storedBytes(for: "com.example.money"))
        bytes[bytes.count / 2] ^= 0x01
        fixture.store.overwrite(bytes, for: "com.example.money")
        #expect(await outcome { () async throws(FeatureProtectionError) in _ = try await protection.protectedFeatures() }?.name == "recordTampered")
    }
}
