import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

@Suite("Vault: tampering, damage and permissions")
struct VaultTamperingTests {
    /// Service, account, label, protection and dates are sealed in `attributes` (SPEC D9).
    static let columns = ["id", "lookup", "attributes", "wrappings", "commitment", "ciphertext", "mac"]

    /// Changes one column of the row found by `lookup` in place, the way an
    /// attacker with write access to the file would.
    static func tamper(_ column: String, of lookup: [UInt8], in database: DatabaseQueue) throws {
        try database.write { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT \(column) AS value FROM item WHERE lookup = ?", arguments: [Data(lookup)]))
            let value: DatabaseValue
            switch row["value"] as DatabaseValue {
            case let stored where stored.storage.value is Data:
                var bytes = Array(stored.storage.value as! Data)
                bytes[bytes.count / 2] ^= 0x01
                value = Data(bytes).databaseValue
            case let stored where stored.storage.value is String:
                value = ((stored.storage.value as! String) + "x").databaseValue
            case let stored where stored.storage.value is Int64:
                value = ((stored.storage.value as! Int64) ^ 1).databaseValue
            case let stored where stored.storage.value is Double:
                value = ((stored.storage.value as! Double) + 1).databaseValue
            default:
                value = "label".databaseValue
            }
            try db.execute(sql: "UPDATE item SET \(column) = ? WHERE lookup = ?", arguments: [value, Data(lookup)])
        }
    }

    @Test("Each column of an item row, changed, is reported as tampered; the other items stay readable", arguments: columns)
    func column(column: String) async throws {
        let fixture = try await TestVault()
        try await fixture.add("victim", accessControl: .biometryCurrentSet)
        try await fixture.add("bystander")
        try Self.tamper(column, of: fixture.vault.subkeys.lookup(table: "item", service: "svc", account: "victim"), in: try fixture.rawDatabase())
        fixture.sensor.present(.match)
        // A changed lookup files the row under no name: not found by name, tampered in a list.
        #expect(await fixture.status { _ = try await fixture.read("victim") } == (column == "lookup" ? .itemNotFound : .tampered))
        #expect(fixture.presenter.prompts.isEmpty, "integrity is checked before any prompt")
        #expect(try await fixture.read("bystander") == "secret")
        #expect(await fixture.status { _ = try await fixture.vault.items.list() } == .tampered)
    }

    @Test("Swapping two rows' ciphertexts is detected, not decrypted into the wrong item")
    func swappedCiphertexts() async throws {
        let fixture = try await TestVault()
        try await fixture.add("a", "alpha")
        try await fixture.add("b", "bravo")
        let lookupA = Data(fixture.vault.subkeys.lookup(table: "item", service: "svc", account: "a"))
        let lookupB = Data(fixture.vault.subkeys.lookup(table: "item", service: "svc", account: "b"))
        try await fixture.rawDatabase().write { db in
            let a = try Data.fetchOne(db, sql: "SELECT ciphertext FROM item WHERE lookup = ?", arguments: [lookupA])!
            let b = try Data.fetchOne(db, sql: "SELECT ciphertext FROM item WHERE lookup = ?", arguments: [lookupB])!
            try db.execute(sql: "UPDATE item SET ciphertext = ? WHERE lookup = ?", arguments: [b, lookupA])
            try db.execute(sql: "UPDATE item SET ciphertext = ? WHERE lookup = ?", arguments: [a, lookupB])
        }
        #expect(await fixture.status { _ = try await fixture.read("a") } == .tampered)
        #expect(await fixture.status { _ = try await fixture.read("b") } == .tampered)
    }

    @Test("A truncated vault file is reported as damaged and left as it is")
    func truncated() async throws {
        let fixture = try await TestVault()
        for index in 0..<200 { try await fixture.add("item-\(index)", String(repeating: "v", count: 200)) }
        let path = fixture.path
        let directory = fixture.directory
        let machine = fixture.machine
        _ = consume fixture
        // Checkpoint so the data is in the main file, then cut it in half.
        let raw = try DatabaseQueue(path: path)
        try await raw.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try raw.close()
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(truncate(path, off_t(size / 2)) == 0)
        var caught: VaultError?
        do {
            let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
            for index in 0..<200 { _ = try await vault.items.read(service: "svc", account: "item-\(index)", operationPrompt: "") }
        } catch {
            caught = error
        }
        #expect(caught?.status == .damaged)
        #expect(caught?.message.contains("damaged") == true)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == size / 2, "never repaired or overwritten")
        _ = directory
    }

    @Test("A vault file or directory open to others is refused, with the reason")
    func permissions() async throws {
        let fixture = try await TestVault()
        let directory = (fixture.path as NSString).deletingLastPathComponent
        chmod(fixture.path, 0o644)
        do {
            _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
            Issue.record("expected insecurePermissions")
        } catch {
            #expect(error.status == .insecurePermissions)
            #expect(error.message.contains("644") && error.message.contains("chmod"))
        }
        chmod(fixture.path, 0o600)
        chmod(directory, 0o755)
        #expect(await fixture.status { _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators) } == .insecurePermissions)
        chmod(directory, 0o700)
        _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
    }

    @Test("The vault directory is created 0700, the file 0600, in WAL mode with full sync")
    func modes() async throws {
        let fixture = try await TestVault()
        let directory = (fixture.path as NSString).deletingLastPathComponent
        let fileMode = try FileManager.default.attributesOfItem(atPath: fixture.path)[.posixPermissions] as! Int
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as! Int
        let keyMode = try FileManager.default.attributesOfItem(atPath: Vault.defaultDeviceKeyPath(forVaultAt: fixture.path))[.posixPermissions] as! Int
        #expect(fileMode == 0o600 && directoryMode == 0o700 && keyMode == 0o600)
        let (journal, synchronous) = try await fixture.vault.database.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(journal == "wal" && synchronous == 2, "WAL with synchronous = FULL")
        #expect(Vault.defaultPath(environment: ["XDG_DATA_HOME": "/x"]) == "/x/sesame/vault.sqlite")
        #expect(Vault.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/sesame/vault.sqlite")
    }
}
