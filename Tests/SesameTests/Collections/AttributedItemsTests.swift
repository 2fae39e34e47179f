import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// The Secret Service view's items (SPEC D10) over a real vault file:
/// round trips, search semantics, replacement, and the keyed-hash index
/// that keeps names and attributes sealed (SPEC D9).
@Suite("Secret Service view: items, search and the attribute index (SPEC D9, D10)")
struct AttributedItemsTests {
    static func text(_ value: SecretBytes) -> String { value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    @discardableResult
    static func create(_ fixture: TestVault, in collection: String, _ label: String, _ attributes: [String: String],
                       value: String = "secret", replacing: Bool = false, accessControl: AccessControl = Vault.noAccessControl,
                       context: AuthenticationContext? = nil) async throws -> AttributedItem {
        try await fixture.vault.collections.createItem(in: collection, label: label, attributes: attributes, value: SecretBytes(utf8: value),
                                           accessControl: accessControl, replacing: replacing, context: context)
    }

    @Test("SPEC D10: an item round-trips its label, attributes, content type, dates and value, and is an ordinary vault item")
    func roundTrip() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Web")
        // Values are data: any text, control characters included (only names refuse them).
        let attributes = ["xdg:schema": "org.example.Password", "user": "ünïcode ✓", "empty": "", "note": "line\nbreak\u{1b}[31m"]
        let item = try await fixture.vault.collections.createItem(in: collection.id, label: "My password", attributes: attributes,
                                                      contentType: "application/octet-stream", value: SecretBytes(utf8: "hunter2"))
        #expect(item.id.count == 16 && item.id.allSatisfy(\.isHexDigit))
        #expect(item.collection == collection.id)
        let read = try await fixture.vault.collections.item(item.id, inCollection: collection.id)
        #expect(read == item)
        #expect(read.attributes == attributes)
        #expect(read.contentType == "application/octet-stream")
        #expect(read.label == "My password")
        #expect(read.created == fixture.machine.clock.now())
        #expect(Self.text(try await fixture.vault.collections.secret(ofItem: item.id, inCollection: collection.id, operationPrompt: "Read")) == "hunter2")
        // `sesame ls`/`get` see it under the collection's service.
        let service = VaultCollections.service(ofCollection: collection.id)
        #expect(try await fixture.vault.items.list().map(\.service) == [service])
        #expect(try await fixture.read(item.id, service: service) == "hunter2")
        // An item without attributes is allowed.
        let bare = try await Self.create(fixture, in: collection.id, "bare", [:])
        #expect(try await fixture.vault.collections.item(bare.id, inCollection: collection.id).attributes == [:])
    }

    @Test("SPEC D10: value, label and attributes change; the index follows the attributes")
    func changes() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Web")
        let item = try await Self.create(fixture, in: collection.id, "old", ["a": "1", "b": "2"])
        fixture.machine.clock.advance(by: 10)
        try await fixture.vault.collections.setSecret(SecretBytes(utf8: "new value"), ofItem: item.id, inCollection: collection.id, operationPrompt: "Set")
        try await fixture.vault.collections.setItemLabel("new", ofItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.setItemAttributes(["a": "1", "c": "3"], ofItem: item.id, inCollection: collection.id)
        let changed = try await fixture.vault.collections.item(item.id, inCollection: collection.id)
        #expect(changed.label == "new")
        #expect(changed.attributes == ["a": "1", "c": "3"])
        #expect(changed.modified > item.modified)
        #expect(Self.text(try await fixture.vault.collections.secret(ofItem: item.id, inCollection: collection.id, operationPrompt: "Read")) == "new value")
        #expect(try await fixture.vault.collections.searchItems(attributes: ["b": "2"]).isEmpty, "the old attribute's index entry is gone")
        #expect(try await fixture.vault.collections.searchItems(attributes: ["c": "3"]).map(\.id) == [item.id])
        try await fixture.vault.collections.deleteItem(item.id, inCollection: collection.id)
        #expect(try await fixture.vault.collections.items(inCollection: collection.id).isEmpty)
        #expect(await fixture.status { try await fixture.vault.collections.deleteItem(item.id, inCollection: collection.id) } == .itemNotFound)
        #expect(try Self.indexRows(fixture) == 0, "a deleted item leaves no index row")
    }

    @Test("SPEC D10: search matches every given pair (a subset of the item's), empty matches all, in one collection or all")
    func searchSemantics() async throws {
        let fixture = try await TestVault()
        let web = try await fixture.vault.collections.create(label: "Web")
        let mail = try await fixture.vault.collections.create(label: "Mail")
        let a = try await Self.create(fixture, in: web.id, "a", ["service": "example.com", "user": "ann"])
        let b = try await Self.create(fixture, in: web.id, "b", ["service": "example.com", "user": "bob"])
        let c = try await Self.create(fixture, in: mail.id, "c", ["service": "example.com", "user": "ann"])
        // An ordinary item under the same service is not a Secret Service item.
        try await fixture.add("plain", service: VaultCollections.service(ofCollection: web.id))
        func ids(_ attributes: [String: String], _ collection: String? = nil) async throws -> Set<String> {
            Set(try await fixture.vault.collections.searchItems(attributes: attributes, inCollection: collection).map(\.id))
        }
        #expect(try await ids(["service": "example.com"]) == [a.id, b.id, c.id])
        #expect(try await ids(["service": "example.com", "user": "ann"]) == [a.id, c.id])
        #expect(try await ids(["service": "example.com", "user": "ann"], web.id) == [a.id])
        #expect(try await ids([:]) == [a.id, b.id, c.id])
        #expect(try await ids([:], mail.id) == [c.id])
        #expect(try await ids(["user": "carol"]).isEmpty)
        #expect(try await ids(["service": "example.com", "user": "ann", "extra": "x"]).isEmpty, "a pair the item lacks")
        #expect(try await ids(["user": "Ann"]).isEmpty, "values compare exactly")
        #expect(try await ids([:], "0000000000000000").isEmpty)
        #expect(try await fixture.vault.collections.items(inCollection: web.id).map(\.label) == ["a", "b"])
    }

    @Test("SPEC D10: CreateItem(replace) replaces the item with exactly the same attributes, keeping its identifier; others stay")
    func replacing() async throws {
        let fixture = try await TestVault()
        let web = try await fixture.vault.collections.create(label: "Web")
        let other = try await fixture.vault.collections.create(label: "Other")
        let first = try await Self.create(fixture, in: web.id, "first", ["user": "ann"], value: "one")
        let superset = try await Self.create(fixture, in: web.id, "superset", ["user": "ann", "extra": "x"], value: "keep")
        let elsewhere = try await Self.create(fixture, in: other.id, "elsewhere", ["user": "ann"], value: "keep too")
        let second = try await Self.create(fixture, in: web.id, "second", ["user": "ann"], value: "two", replacing: true)
        #expect(second.id == first.id)
        #expect(try await fixture.vault.collections.items(inCollection: web.id).map(\.label) == ["second", "superset"])
        #expect(Self.text(try await fixture.vault.collections.secret(ofItem: first.id, inCollection: web.id, operationPrompt: "Read")) == "two")
        #expect(try await fixture.vault.collections.item(superset.id, inCollection: web.id).label == "superset")
        #expect(try await fixture.vault.collections.item(elsewhere.id, inCollection: other.id).label == "elsewhere")
        // Without `replacing`, a second item with the same attributes is simply another item.
        let third = try await Self.create(fixture, in: web.id, "third", ["user": "ann"])
        #expect(third.id != first.id)
        #expect(try await fixture.vault.collections.searchItems(attributes: ["user": "ann"], inCollection: web.id).count == 3)
    }

    @Test("SPEC D9: a copied vault file shows no collection label, alias, item label, attribute name or value")
    func sealedAtRest() async throws {
        let fixture = try await TestVault()
        let secrets = ["CollectionLabelQuartz", "AliasNameZephyr", "ItemLabelMarmot", "AttrNameWombat", "AttrValueNarwhal", "ContentTypeOcelot"]
        let collection = try await fixture.vault.collections.create(label: secrets[0], alias: secrets[1])
        _ = try await fixture.vault.collections.createItem(in: collection.id, label: secrets[2], attributes: [secrets[3]: secrets[4]],
                                           contentType: secrets[5], value: SecretBytes(utf8: "v"))
        #expect(try await fixture.vault.collections.searchItems(attributes: [secrets[3]: secrets[4]]).count == 1)
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: fixture.path + suffix) {
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: fixture.path + suffix)))
        }
        #expect(bytes.count > 4096)
        for secret in secrets {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the file")
        }
        // The search still works, so the text is there, sealed.
        #expect(try await fixture.vault.collections.alias(named: secrets[1]) == collection.id)
    }

    @Test("SPEC D9: a search opens only the rows that match, at 100 items as at 10,000")
    func searchOpensOnlyMatches() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Bulk")
        try await Self.bulkCreate(fixture, in: collection.id, range: 0..<100)
        let small = try await Self.opened(fixture, ["n": "42"])
        let smallGroup = try await Self.opened(fixture, ["group": "7", "kind": "bulk"])
        try await Self.bulkCreate(fixture, in: collection.id, range: 100..<10_000)
        let large = try await Self.opened(fixture, ["n": "42"])
        let largeGroup = try await Self.opened(fixture, ["group": "7", "kind": "bulk"])
        #expect(small == Opened(matched: 1, opened: 1))
        #expect(large == Opened(matched: 1, opened: 1))
        #expect(smallGroup == Opened(matched: 1, opened: 1), "only item 7 of the first 100 is in group 7")
        #expect(largeGroup == Opened(matched: 100, opened: 100))
        #expect(try await Self.opened(fixture, ["n": "none"]) == Opened(matched: 0, opened: 0))
    }

    @Test("SPEC D9, D10: an index row added by hand cannot make a non-matching item match: the sealed attributes are checked again")
    func tamperedIndexRow() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Web")
        let victim = try await Self.create(fixture, in: collection.id, "victim", ["user": "ann"])
        _ = try await Self.create(fixture, in: collection.id, "decoy", ["user": "bob"])
        let rowID = try await fixture.vault.collections.attributedRow(victim.id, inCollection: collection.id).id
        let subkeys = fixture.vault.subkeys
        // The attacker files the victim under "user=bob" too.
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "INSERT INTO attribute_index (hash, item) VALUES (?, ?)",
                           arguments: [Data(subkeys.indexHash("attribute", "user", "bob")), rowID])
        }
        let found = try await fixture.vault.collections.attributeSearch(AttributeIndex.Query(attributes: ["user": "bob"], collection: nil))
        #expect(found.opened == 2, "the forged entry made the victim a candidate")
        #expect(!found.rows.map(\.account).contains(victim.id))
        #expect(try await fixture.vault.collections.searchItems(attributes: ["user": "bob"]).map(\.label) == ["decoy"])
    }

    // MARK: Helpers

    struct Opened: Equatable {
        var matched: Int
        var opened: Int
    }

    static func opened(_ fixture: TestVault, _ attributes: [String: String]) async throws -> Opened {
        let found = try await fixture.vault.collections.attributeSearch(AttributeIndex.Query(attributes: attributes, collection: nil))
        return Opened(matched: found.rows.count, opened: found.opened)
    }

    /// Items made as `createItem` makes them, written in one transaction
    /// (10,000 durable commits would only measure the disk).
    static func bulkCreate(_ fixture: TestVault, in collection: String, range: Range<Int>) async throws {
        var rows: [ItemRow] = []
        for n in range {
            rows.append(try await fixture.vault.collections.newAttributedRow(
                CollectionNames.newIdentifier(), in: collection, label: "item \(n)",
                attributes: ["n": String(n), "group": String(n % 100), "kind": "bulk"], contentType: "text/plain",
                value: SecretBytes(utf8: "value \(n)"), accessControl: Vault.noAccessControl, context: nil))
        }
        let finished = rows
        let subkeys = fixture.vault.subkeys
        try await fixture.vault.rows.write { db in
            for row in finished { try row.insert(db, subkeys: subkeys) }
        }
    }

    static func indexRows(_ fixture: TestVault) throws -> Int {
        try fixture.rawDatabase().read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attribute_index") ?? -1 }
    }
}
