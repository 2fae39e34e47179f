import Crypto
import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// Format 7 (SPEC D9, D10): the Secret Service tables and the version-2
/// sealed attributes. A format-6 file is read as it is and upgraded at its
/// first write, every item intact; the new encoding is checked byte by byte.
@Suite("Secret Service view: format 7, its migration from format 6 and its encoding (SPEC D9, D10)")
struct CollectionsFormatTests {
    let directory: TemporaryDirectory
    let machine = GoldenVault.machine()
    var copy: String { directory.path + "/golden" }
    var path: String { copy + "/vault.sqlite" }

    /// A private copy of the committed format-6 golden vault (never written itself).
    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: GoldenVault6Tests.resources, toPath: copy)
        for (file, mode) in [(copy, 0o700), (copy + "/device", 0o700), (copy + "/vault.sqlite", 0o600),
                             (copy + "/device/device.key", 0o600), (copy + "/recovery.txt", 0o600)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        }
    }

    private func files() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["vault.sqlite", "vault.sqlite-wal", "vault.sqlite-shm"] where FileManager.default.fileExists(atPath: copy + "/" + name) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: copy + "/" + name))
        }
        return files
    }

    @Test("SPEC D10: on a format-6 vault the Secret Service reads find nothing and write nothing")
    func readsOnFormat6() async throws {
        _ = try await Vault.summary(at: path)
        let before = try files()
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await vault.collections.list().isEmpty)
        #expect(try await vault.collections.searchItems(attributes: [:]).isEmpty)
        #expect(try await vault.collections.alias(named: "work") == nil)
        #expect(try files() == before)
        #expect(try await Vault.summary(at: path).format == 6)
    }

    @Test("SPEC D9, D10: the first write upgrades a format-6 vault to 7; every golden item and key still reads back")
    func migrationFromFormat6() async throws {
        let vault = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        let collection = try await vault.collections.create(label: "Login", alias: "default")
        #expect(try await Vault.summary(at: path) == VaultSummary(format: 7, slots: ["device", "passcode", "recovery"], itemCount: 15))
        let item = try await vault.collections.createItem(in: collection.id, label: "new", attributes: ["a": "b"], value: SecretBytes(utf8: "v"))
        // The golden items are untouched: same attributes, and their values open.
        let reopened = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await reopened.items.list(service: GoldenVault.service) == GoldenVault.items.filter { $0.service == GoldenVault.service })
        for (account, accessControl) in GoldenVault.accessControls {
            #expect(try await GoldenVault.read(reopened, account, accessControl: accessControl, on: machine) == GoldenVault.value(of: account))
        }
        #expect(try await reopened.keys.key(service: GoldenVault6.keyService, name: "ed25519").publicKey.rawRepresentation
                == (try GoldenVault6Tests.publicKey(of: GoldenVault6Tests.key("ed25519"))))
        #expect(try await reopened.collections.searchItems(attributes: ["a": "b"]).map(\.id) == [item.id])
        #expect(try await reopened.collections.alias(named: "default") == collection.id)
        let migrations = try await reopened.rows.readDatabase { db in try Schema.appliedMigrations(db) }
        #expect(migrations.last == Schema.secretServiceMigration)
        #expect(Schema.format == 7)
    }

    @Test("SPEC D9: a row's sealed attributes are version 1 without Secret Service fields and version 2 with them, byte for byte")
    func encoding() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "C")
        try await fixture.add("ordinary")
        let item = try await fixture.vault.collections.createItem(in: collection.id, label: "L", attributes: ["b": "2", "a": "1"],
                                                      contentType: "text/plain", value: SecretBytes(utf8: "v"))
        let subkeys = fixture.vault.subkeys
        let service = VaultCollections.service(ofCollection: collection.id)
        func plaintext(service: String, account: String) async throws -> [UInt8] {
            let lookup = Data(subkeys.lookup(table: "item", service: service, account: account))
            let (id, sealed) = try await fixture.vault.rows.readDatabase { db -> (Int64, [UInt8]) in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT id, attributes FROM item WHERE lookup = ?", arguments: [lookup]))
                return (row["id"] as Int64, Array(row["attributes"] as Data))
            }
            // Opened here with swift-crypto directly, under the documented key and associated data.
            let associatedData = Array("sesame.item-attributes".utf8) + [1] + withUnsafeBytes(of: UInt64(bitPattern: id).bigEndian, Array.init)
            let box = try AES.GCM.SealedBox(combined: sealed)
            return Array(try AES.GCM.open(box, using: subkeys.attributesKey, authenticating: associatedData))
        }
        #expect(try await plaintext(service: "svc", account: "ordinary").first == 1)
        let sealed = try await plaintext(service: service, account: item.id)
        #expect(sealed.first == 2)
        #expect(sealed.count % 64 == 0, "padded as version 1 is")
        // After the key flag: content type, the count, then the pairs sorted by name, each length-prefixed.
        func field(_ text: String) -> [UInt8] { withUnsafeBytes(of: UInt32(text.utf8.count).bigEndian, Array.init) + Array(text.utf8) }
        let tail = field("text/plain") + [0, 0, 0, 2] + field("a") + field("1") + field("b") + field("2")
        let body = Array(sealed.reversed().drop { $0 == 0 }.reversed())
        #expect(Array(body.suffix(tail.count + 1)) == [0] + tail, "\(body)")
    }
}
