import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// The vault's format is authenticated and its names are sealed
/// (SPEC D9). A schema rolled back by hand is `tampered`, never a fresh start.
@Suite("Vault: format authenticated, attributes sealed (SPEC D9)")
struct VaultFormatTests {
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    /// The bytes of the vault file and its companions.
    static func files(_ path: String) throws -> [String: [UInt8]] {
        var bytes: [String: [UInt8]] = [:]
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            bytes[file] = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        return bytes
    }

    @Test("SPEC D9: a new vault's files hold no service, account, label, access control or date; list and read still give them")
    func sealedAtRest() async throws {
        let fixture = try await TestVault(slots: [.passcode(SecretBytes(utf8: "482913"), cost: .testing)])
        try await fixture.vault.items.add(SecretBytes(utf8: "v"), service: "gitlab.com-service", account: "jdoe-account", label: "payroll-label",
                                    accessibility: .afterFirstUnlock)
        _ = try await fixture.vault.keys.create(service: "ssh-service", name: "laptop-key", algorithm: .ed25519, label: "key-label")
        let item = try #require(try await fixture.vault.items.list().first)
        #expect(item.service == "gitlab.com-service" && item.account == "jdoe-account" && item.label == "payroll-label")
        #expect(try await fixture.vault.keys.list().first?.name == "laptop-key")
        let created = withUnsafeBytes(of: item.created.timeIntervalSince1970.bitPattern.bigEndian) { Array($0) }
        for (file, bytes) in try Self.files(fixture.path) {
            for name in ["gitlab.com-service", "jdoe-account", "payroll-label", "ssh-service", "laptop-key", "key-label",
                         "afterFirstUnlock", "privateKeyUsage", "ed25519"] {
                #expect(!Self.contains(bytes, Array(name.utf8)), "\(file) shows \(name)")
            }
            #expect(!Self.contains(bytes, created), "\(file) shows the creation date")
        }
    }

    @Test("SPEC E5: the attempt table dropped with its migration row is tampered (the passcode is not checked), not a fresh record")
    func droppedAttemptTable() async throws {
        let fixture = try await TestVault(slots: [.passcode(SecretBytes(utf8: "482913"), cost: .testing)])
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "DROP TABLE attempt")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2-attempts'")
        }
        let opening = await fixture.status {
            _ = try await Vault.open(at: fixture.path, unlock: .passcode(SecretBytes(utf8: "482913")), authenticators: fixture.machine.authenticators)
        }
        #expect(opening == .tampered)
        await #expect(throws: VaultError.tampered) { _ = try await VaultSlots.passcodeAttempts(at: fixture.path) }
        #expect(try await fixture.rawDatabase().read { db in try db.tableExists("attempt") } == false, "no fresh record was made")
    }

    @Test("SPEC D9: a lowered meta.format is tampered, before and after unlocking", arguments: ["1", "2", "3", "5"])
    func loweredFormat(format: String) async throws {
        let fixture = try await TestVault()
        try await fixture.add("a")
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data(format.utf8)])
        }
        await #expect(throws: VaultError.tampered) { _ = try await Vault.summary(at: fixture.path) }
        await #expect(throws: VaultError.tampered) {
            _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        }
    }

    @Test("SPEC D9: the format record is MACed: a migration row removed with its format lowered, or the MAC removed, is tampered after unlocking")
    func formatMAC() async throws {
        for edit in ["DELETE FROM meta WHERE name = 'format-mac'", "INSERT INTO grdb_migrations (identifier) VALUES ('x-unknown')"] {
            let fixture = try await TestVault()
            try await fixture.add("a")
            try await fixture.rawDatabase().write { db in try db.execute(sql: edit) }
            let opening = await fixture.status {
                _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
            }
            #expect(opening == .tampered, "\(edit)")
        }
    }

    @Test("SPEC D9: an older vault reads without writing, and its first write seals every row; what was stored reads back the same")
    func upgradeOnFirstWrite() async throws {
        let fixture = try await TestVault()
        try await fixture.rawDatabase().write { db in try LegacyVault.rollBack(db, to: 3) }
        // A clear row as an older Sesame wrote it, MACed under the same key.
        let subkeys = fixture.vault.subkeys
        let row = ItemRow(id: 7, service: "legacy-service", account: "legacy-account", label: "legacy-label", accessibility: "whenUnlocked",
                          accessControl: Vault.noAccessControl.canonicalEncoding, created: 1_800_000_000, modified: 1_800_000_001,
                          wrappings: [], commitment: nil, ciphertext: [1, 2, 3])
        var legacy = row
        legacy.mac = subkeys.mac(legacy)
        let stored = legacy
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "INSERT INTO item (\(ItemRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                stored.id, stored.service, stored.account, stored.label, stored.accessibility, stored.accessControl,
                stored.created, stored.modified, Data(stored.wrappings), nil, Data(stored.ciphertext), Data(stored.mac)])
        }
        let vault = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        let before = try Self.files(fixture.path)
        #expect(try await vault.items.list().map(\.account) == ["legacy-account"])
        #expect(try Self.files(fixture.path) == before, "reads never write")
        #expect(try await Vault.summary(at: fixture.path).format == 3)

        try await vault.items.add(SecretBytes(utf8: "new"), service: "svc", account: "new")
        #expect(try await Vault.summary(at: fixture.path).format == Schema.format)
        let listed = try await vault.items.list()
        #expect(listed.map(\.account) == ["legacy-account", "new"])
        #expect(listed.first?.label == "legacy-label" && listed.first?.modified == Date(timeIntervalSince1970: 1_800_000_001))
        for (file, bytes) in try Self.files(fixture.path) {
            for name in ["legacy-service", "legacy-account", "legacy-label"] {
                #expect(!Self.contains(bytes, Array(name.utf8)), "\(file) still shows \(name) after the upgrade")
            }
        }
        // Another process's view: the sealed file opens afresh.
        _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
    }
}
