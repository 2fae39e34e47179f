import Foundation
@testable import Sesame
import SesameTesting
import Testing

@Suite("Vault: settings records and the attempt store")
struct VaultSettingsTests {
    @Test("SPEC G: Settings round-trip, update atomically, and report edits as tampered")
    func settings() async throws {
        let fixture = try await TestVault()
        #expect(try await fixture.vault.settings.value(named: "flags") == nil)
        try await fixture.vault.settings.set([1, 2, 3], named: "flags")
        #expect(try await fixture.vault.settings.value(named: "flags") == [1, 2, 3])
        let after = try await fixture.vault.settings.update(named: "flags") { $0?.append(4) }
        #expect(after == [1, 2, 3, 4])
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "UPDATE setting SET name = 'other' WHERE name = 'flags'")
            try db.execute(sql: "INSERT INTO setting (name, sealed) SELECT 'flags', sealed FROM setting WHERE name = 'other'")
        }
        #expect(await fixture.status { _ = try await fixture.vault.settings.value(named: "other") } == .tampered)
        try await fixture.vault.settings.set(nil, named: "flags")
        #expect(try await fixture.vault.settings.value(named: "flags") == nil)
    }

    @Test("SPEC A4: VaultAttemptStore keeps lockout across reopening and fails closed when edited")
    func attempts() async throws {
        let fixture = try await TestVault()
        var authenticators = fixture.vault.authenticators
        authenticators.attempts = VaultAttemptStore(fixture.vault)
        fixture.vault.authenticators = authenticators
        let store = VaultAttemptStore(fixture.vault)
        try await store.update { $0.biometricLockout = true; $0.consecutiveBiometricFailures = 5 }

        let reopened = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        let record = try await VaultAttemptStore(reopened).read()
        #expect(record.biometricLockout && record.consecutiveBiometricFailures == 5)

        try await fixture.rawDatabase().write { db in
            let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM setting WHERE name = ?", arguments: [VaultAttemptStore.settingName])!
            var bytes = Array(sealed)
            bytes[20] ^= 0x80
            try db.execute(sql: "UPDATE setting SET sealed = ? WHERE name = ?", arguments: [Data(bytes), VaultAttemptStore.settingName])
        }
        await #expect(throws: VaultError.tampered) { _ = try await store.read() }
        await #expect(throws: VaultError.tampered) { try await store.update { $0 = AttemptRecord() } }
    }
}
