import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// Feature-protection flags and app-passcode attempts kept in the vault.
@Suite("Vault: feature protection and app passcode records")
struct VaultStoresTests {
    @Test("SPEC B6: feature-protection flags live in the vault and survive reopening it")
    func featureFlags() async throws {
        let fixture = try await TestVault()
        let keys = InMemoryDeviceKeyStore()
        let protection = FeatureProtection(appIdentifier: "com.example.money", authenticators: fixture.machine.authenticators,
                                           store: VaultAppRecordStore(fixture.vault, kind: .featureProtection), deviceKeys: keys)
        try await protection.enable("transfer")

        let reopened = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        let relaunched = FeatureProtection(appIdentifier: "com.example.money", authenticators: fixture.machine.authenticators,
                                           store: VaultAppRecordStore(reopened, kind: .featureProtection), deviceKeys: keys)
        #expect(await relaunched.isAuthenticationEnabled("transfer"))
    }

    @Test("SPEC B6: an edited flag record in the vault fails closed: every feature counts as protected")
    func featureFlagsTampered() async throws {
        let fixture = try await TestVault()
        let protection = FeatureProtection(appIdentifier: "com.example.money", authenticators: fixture.machine.authenticators,
                                           store: VaultAppRecordStore(fixture.vault, kind: .featureProtection), deviceKeys: InMemoryDeviceKeyStore())
        try await protection.enable("transfer")
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "UPDATE setting SET sealed = zeroblob(length(sealed)) WHERE name = ?",
                           arguments: [AppRecordKind.featureProtection.settingName("com.example.money")])
        }
        #expect(await protection.isAuthenticationEnabled("anything"))
        fixture.sensor.present(.match)
        await #expect(throws: FeatureProtectionError.self) { try await protection.disable("transfer", reason: "x") }
    }

    @Test("SPEC E3: the app passcode's delay, kept in the vault, survives a restart")
    func passcodeDelay() async throws {
        let fixture = try await TestVault()
        let clock = ManualClock()
        let cost = AppPasscodeCost(n: 1 << 8, r: 8, p: 1)
        let passcode = AppPasscode(appIdentifier: "com.example.notes", store: VaultAppRecordStore(fixture.vault, kind: .appPasscode), cost: cost, clock: clock)
        try await passcode.set(SecretBytes(utf8: "482913"))
        for wrong in ["1", "2", "3", "4", "5"] { _ = await passcode.verify(SecretBytes(utf8: wrong)) }

        let reopened = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        let restarted = AppPasscode(appIdentifier: "com.example.notes", store: VaultAppRecordStore(reopened, kind: .appPasscode), cost: cost, clock: clock)
        guard case .delayed = await restarted.verify(SecretBytes(utf8: "482913")) else {
            Issue.record("the delay was lost across the restart")
            return
        }
        clock.advance(by: 61)
        #expect(await restarted.verify(SecretBytes(utf8: "482913")) == .accepted)
        let stored = try #require(try await reopened.settings.value(named: AppRecordKind.appPasscode.settingName("com.example.notes")))
        #expect(!String(decoding: stored, as: UTF8.self).contains("482913"))
    }
}
