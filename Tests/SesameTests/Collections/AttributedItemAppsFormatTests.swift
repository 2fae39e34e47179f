import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// Version 3 of the sealed attributes (SPEC D9, D13): written only for an
/// item that records apps, so every other row keeps its bytes; read only
/// exactly as written, so a block edited, moved or forged never opens.
@Suite("Secret Service view: the recorded apps' encoding, version 3 of the sealed attributes (SPEC D8, D9, D13)")
struct AttributedItemAppsFormatTests {
    typealias Apps = AttributedItemAppsTests

    /// The opened plaintext of an item's sealed attributes, and its row id.
    static func plaintext(_ fixture: TestVault, _ item: AttributedItem) async throws -> (id: Int64, bytes: [UInt8]) {
        let subkeys = fixture.vault.subkeys
        let lookup = Data(subkeys.lookup(table: "item", service: VaultCollections.service(ofCollection: item.collection), account: item.id))
        let (id, sealed) = try await fixture.vault.rows.readDatabase { db -> (Int64, [UInt8]) in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT id, attributes FROM item WHERE lookup = ?", arguments: [lookup]))
            return (row["id"] as Int64, Array(row["attributes"] as Data))
        }
        let opened = Envelope.open(sealed, key: subkeys.attributesKey, associatedData: SealedAttributes.associatedData(id: id, table: "item"))
        return (id, try #require(opened))
    }

    static func field(_ bytes: [UInt8]) -> [UInt8] { withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init) + bytes }
    static func field(_ text: String) -> [UInt8] { field(Array(text.utf8)) }

    /// An app block: the flag and token of the app, then the allowed tokens as given.
    static func rawBlock(app: [UInt8]?, allowed: [[UInt8]], flag: UInt8? = nil) -> [UInt8] {
        (app.map { [flag ?? 1] + field($0) } ?? [flag ?? 0]) + withUnsafeBytes(of: UInt32(allowed.count).bigEndian, Array.init) + allowed.flatMap(field)
    }

    static func block(app: String?, allowed: [String]) -> [UInt8] {
        rawBlock(app: app.map { Array($0.utf8) }, allowed: allowed.map { Array($0.utf8) })
    }

    @Test("SPEC D9, D13: an item without apps stays version 2; with them it is version 3, laid out as documented; clearing them returns to 2")
    func versions() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "C")
        try await fixture.add("ordinary")
        let plain = try await Apps.create(fixture, in: collection.id, ["b": "2"], app: nil)
        #expect(try await Self.plaintext(fixture, plain).bytes.first == 2)
        let item = try await Apps.create(fixture, in: collection.id, app: Apps.firefox)
        try await fixture.vault.collections.allowApp(Apps.signal, forItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.allowApp(Apps.chromium, forItem: item.id, inCollection: collection.id)
        let sealed = try await Self.plaintext(fixture, item).bytes
        #expect(sealed.first == 3 && sealed.count % 64 == 0)
        // After the key flag: version 2's block, then the app and the allowed tokens by their bytes ("/usr…" < "snap:…").
        let tail = [0] + Self.field("text/plain") + [0, 0, 0, 1] + Self.field("a") + Self.field("1")
            + Self.block(app: "flatpak:org.mozilla.firefox", allowed: ["/usr/bin/chromium", "snap:signal-desktop"])
        let body = Array(sealed.reversed().drop { $0 == 0 }.reversed())
        #expect(Array(body.suffix(tail.count)) == tail, "\(body)")
        // Nothing recorded any more: the row is written as version 2 again.
        try await fixture.vault.collections.removeAllowedApp(Apps.signal, fromItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.removeAllowedApp(Apps.chromium, fromItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.bindItem(item.id, inCollection: collection.id, to: nil)
        #expect(try await Self.plaintext(fixture, item).bytes.first == 2)
    }

    @Test("SPEC D9, D13: a version-3 block edited, or moved to another row, does not open: tampered")
    func editedOrMoved() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "C")
        let victim = try await Apps.create(fixture, in: collection.id, ["v": "1"], app: Apps.firefox)
        let other = try await Apps.create(fixture, in: collection.id, ["o": "1"], app: Apps.chromium)
        let bystander = try await Apps.create(fixture, in: collection.id, ["b": "1"], app: Apps.signal)
        let lookup = { (item: AttributedItem) in
            Data(fixture.vault.subkeys.lookup(table: "item", service: VaultCollections.service(ofCollection: collection.id), account: item.id))
        }
        // Moved: the other row's block, whole, in the victim's row.
        let (from, to) = (lookup(other), lookup(victim))
        try await fixture.rawDatabase().write { db in
            let moved = try Data.fetchOne(db, sql: "SELECT attributes FROM item WHERE lookup = ?", arguments: [from])
            try db.execute(sql: "UPDATE item SET attributes = ? WHERE lookup = ?", arguments: [moved, to])
        }
        // The victim is filed under its own lookup, so it is found and refused.
        #expect(await fixture.status { _ = try await fixture.vault.collections.item(victim.id, inCollection: collection.id) } == .tampered)
        // Edited: one bit of the other row's block.
        try VaultTamperingTests.tamper("attributes", of: Array(lookup(other)), in: try fixture.rawDatabase())
        #expect(await fixture.status { _ = try await fixture.vault.collections.item(other.id, inCollection: collection.id) } == .tampered)
        #expect(try await fixture.vault.collections.item(bystander.id, inCollection: collection.id).app == Apps.signal)
        #expect(await fixture.status { _ = try await fixture.vault.collections.items(inCollection: collection.id) } == .tampered)
    }

    @Test("SPEC D8, D13: the row's MAC covers the apps: a block sealed again with another allowed list fails the row's integrity check")
    func macCoversTheApps() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "C")
        let item = try await Apps.create(fixture, in: collection.id, app: Apps.firefox)
        let subkeys = fixture.vault.subkeys
        let service = VaultCollections.service(ofCollection: collection.id)
        let original = try #require(try await fixture.vault.rows.readDatabase { db in
            try ItemRow.fetch(db, service: service, account: item.id, subkeys: subkeys)
        })
        // Only the attributes key could do this; the MAC, under its own key, still tells.
        for forge in [{ (fields: inout AttributedItemFields) in fields.allowedApps = [Apps.chromium] },
                      { (fields: inout AttributedItemFields) in fields.app = Apps.chromium },
                      { (fields: inout AttributedItemFields) in fields.app = nil }] {
            var row = original
            forge(&row.attributedFields!)
            let sealed = try SealedAttributes.seal(row, subkeys: subkeys), id = row.id
            try await fixture.rawDatabase().write { db in
                try db.execute(sql: "UPDATE item SET attributes = ? WHERE id = ?", arguments: [Data(sealed), id])
            }
            #expect(await fixture.status { _ = try await fixture.vault.collections.item(item.id, inCollection: collection.id) } == .tampered)
            #expect(await fixture.status { _ = try await fixture.vault.collections.secret(ofItem: item.id, inCollection: collection.id, operationPrompt: "R") }
                    == .tampered)
        }
    }

    @Test("SPEC D9, D13: only the documented version 3 parses: unknown kinds, empty or unordered lists, 65 apps and stray bytes are tampered",
          arguments: [
              ("a recorded app", block(app: "flatpak:org.mozilla.firefox", allowed: []), true),
              ("an allowed app alone", block(app: nil, allowed: ["/usr/bin/chromium"]), true),
              ("every kind", block(app: "systemd-unit:a", allowed: ["/x", "flatpak:a", "snap:a", "systemd-unit:a"]), true),
              ("nothing recorded", block(app: nil, allowed: []), false),
              ("an unknown kind", block(app: "appimage:org.example", allowed: []), false),
              ("the executable kind spelled out", block(app: "executable:/usr/bin/x", allowed: []), false),
              ("a relative path", block(app: nil, allowed: ["usr/bin/x"]), false),
              ("an empty token", block(app: "", allowed: []), false),
              ("an empty id", block(app: "flatpak:", allowed: []), false),
              ("a NUL", block(app: "flatpak:a\u{0}b", allowed: []), false),
              ("invalid UTF-8", rawBlock(app: [0x2F, 0xFF], allowed: []), false),
              ("an unknown flag", rawBlock(app: Array("flatpak:a".utf8), allowed: [], flag: 2), false),
              ("an unordered list", block(app: nil, allowed: ["snap:b", "flatpak:a"]), false),
              ("a repeated app", block(app: nil, allowed: ["flatpak:a", "flatpak:a"]), false),
              ("65 apps", block(app: nil, allowed: (100..<165).map { "flatpak:a\($0)" }), false),
              ("a stray byte", block(app: "flatpak:a", allowed: []) + [7], false),
          ])
    func parse(what: String, block: [UInt8], opens: Bool) async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "C")
        let item = try await Apps.create(fixture, in: collection.id, app: nil)
        let (id, version2) = try await Self.plaintext(fixture, item)
        let body = Array(version2.reversed().drop { $0 == 0 }.reversed())
        func opened(_ bytes: [UInt8]) throws -> SealedAttributes? {
            let padded = bytes + [UInt8](repeating: 0, count: (64 - bytes.count % 64) % 64)
            let sealed = try Envelope.seal(padded, key: fixture.vault.subkeys.attributesKey,
                                           associatedData: SealedAttributes.associatedData(id: id, table: "item"))
            return try? SealedAttributes.open(sealed, id: id, table: "item", subkeys: fixture.vault.subkeys)
        }
        #expect(try opened(body) != nil, "the untouched version 2 opens")
        let result = try opened([3] + body.dropFirst() + block)
        #expect((result != nil) == opens, "\(what)")
        if opens {
            #expect(result?.attributedFields?.recordsApps == true)
            // The same fields written again give the same bytes: one encoding.
            var writer = ByteWriter()
            result?.attributedFields?.write(into: &writer)
            #expect(writer.bytes.suffix(block.count) == block[...])
        }
        // Were version 3 called 2, the app block would not be ignored (an all-zero block is only padding).
        if block.contains(where: { $0 != 0 }) { #expect(try opened(body + block) == nil) }
    }
}
