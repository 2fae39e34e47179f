import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// Collections and aliases of the Secret Service view (SPEC D10), sealed
/// records in a real vault file (SPEC D9), and what it refuses from outside.
@Suite("Secret Service view: collections, aliases and hostile input (SPEC D9, D10)")
struct CollectionsTests {
    @Test("SPEC D10: collections are created, listed, relabelled and keep a path-safe identifier")
    func lifecycle() async throws {
        let fixture = try await TestVault()
        #expect(try await fixture.vault.collections.list().isEmpty)
        let web = try await fixture.vault.collections.create(label: "Web")
        fixture.machine.clock.advance(by: 5)
        let mail = try await fixture.vault.collections.create(label: "Mail ✉")
        #expect(web.id != mail.id)
        for id in [web.id, mail.id] {
            let hex = id.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
            #expect(id.count == 16 && hex, "\(id)")
        }
        #expect(try await fixture.vault.collections.list() == [mail, web])
        try await fixture.vault.collections.setLabel("Browsers", of: web.id)
        let relabelled = try await fixture.vault.collections.collection(web.id)
        #expect(relabelled.label == "Browsers" && relabelled.created == web.created && relabelled.modified > web.modified)
        #expect(await fixture.status { _ = try await fixture.vault.collections.collection("ffffffffffffffff") } == .itemNotFound)
        #expect(await fixture.status { try await fixture.vault.collections.setLabel("x", of: "ffffffffffffffff") } == .itemNotFound)
    }

    @Test("SPEC D10: deleting a collection deletes its items, their index rows and its aliases; other collections keep theirs")
    func deleteCollection() async throws {
        let fixture = try await TestVault()
        let doomed = try await fixture.vault.collections.create(label: "Doomed", alias: "work")
        let kept = try await fixture.vault.collections.create(label: "Kept")
        for n in 0..<3 {
            try await AttributedItemsTests.create(fixture, in: doomed.id, "doomed \(n)", ["user": "ann", "n": String(n)])
        }
        let survivor = try await AttributedItemsTests.create(fixture, in: kept.id, "survivor", ["user": "ann"])
        try await fixture.add("ordinary")
        let indexBefore = try AttributedItemsTests.indexRows(fixture)
        try await fixture.vault.collections.delete(doomed.id)
        #expect(try await fixture.vault.collections.list() == [try await fixture.vault.collections.collection(kept.id)])
        #expect(try await fixture.vault.collections.searchItems(attributes: ["user": "ann"]).map(\.id) == [survivor.id])
        #expect(try await fixture.vault.items.list().map(\.account).sorted() == ["ordinary", survivor.id].sorted())
        // The survivor's entries only: "item", its collection and one attribute.
        #expect(indexBefore == 3 * 4 + 3)
        #expect(try AttributedItemsTests.indexRows(fixture) == 3)
        #expect(try await fixture.vault.collections.alias(named: "work") == nil)
        #expect(await fixture.status { try await fixture.vault.collections.delete(doomed.id) } == .itemNotFound)
    }

    @Test("SPEC D10: aliases point at collections; an alias that must resolve makes its collection once")
    func aliases() async throws {
        let fixture = try await TestVault()
        let web = try await fixture.vault.collections.create(label: "Web")
        #expect(try await fixture.vault.collections.alias(named: "work") == nil)
        try await fixture.vault.collections.setAlias("work", to: web.id)
        #expect(try await fixture.vault.collections.alias(named: "work") == web.id)
        try await fixture.vault.collections.setAlias("work", to: nil)
        #expect(try await fixture.vault.collections.alias(named: "work") == nil)
        #expect(await fixture.status { try await fixture.vault.collections.setAlias("work", to: "ffffffffffffffff") } == .itemNotFound)

        #expect(try await fixture.vault.collections.alias(named: "inbox") == nil, "a plain lookup never makes a collection")
        let inbox = try await fixture.vault.collections.alias(named: "inbox", creatingCollectionLabelled: "Inbox")
        #expect(try await fixture.vault.collections.collection(inbox).label == "Inbox")
        #expect(try await fixture.vault.collections.alias(named: "inbox", creatingCollectionLabelled: "Other") == inbox, "resolved once, then stable")
        #expect(try await fixture.vault.collections.list().count == 2)
        try await fixture.vault.collections.setAlias("inbox", to: web.id)
        #expect(try await fixture.vault.collections.alias(named: "inbox", creatingCollectionLabelled: "Inbox") == web.id)
        // Its collection deleted, the alias makes a new one.
        try await fixture.vault.collections.delete(web.id)
        #expect(try await fixture.vault.collections.alias(named: "inbox") == nil)
        let again = try await fixture.vault.collections.alias(named: "inbox", creatingCollectionLabelled: "Inbox")
        #expect(again != web.id && again != inbox)
    }

    @Test("SPEC D9: names refuse control characters and oversize input with a clear error; values may hold anything")
    func hostileInput() async throws {
        let fixture = try await TestVault()
        let web = try await fixture.vault.collections.create(label: "Web")
        func status(label: String = "ok", attributes: [String: String] = [:], contentType: String = "text/plain") async -> VaultError.Status? {
            await fixture.status {
                _ = try await fixture.vault.collections.createItem(in: web.id, label: label, attributes: attributes, contentType: contentType,
                                                       value: SecretBytes(utf8: "v"))
            }
        }
        #expect(await status(label: "evil\u{1b}]0;title\u{7}") == .invalidName)
        #expect(await status(attributes: ["na\u{0}me": "v"]) == .invalidName)
        #expect(await status(contentType: "text/\u{85}plain") == .invalidName)
        #expect(await status(attributes: ["name": "value\u{1b}[2J with escapes\n"]) == nil)
        #expect(await status(label: String(repeating: "l", count: 4097)) == .invalidArgument)
        #expect(await status(attributes: [String(repeating: "n", count: 257): "v"]) == .invalidArgument)
        #expect(await status(attributes: ["n": String(repeating: "v", count: 8193)]) == .invalidArgument)
        let many = Dictionary(uniqueKeysWithValues: (0...128).map { ("k\($0)", "v") })
        #expect(await status(attributes: many) == .invalidArgument)
        #expect(await status(attributes: Dictionary(uniqueKeysWithValues: (0..<128).map { ("k\($0)", "v") })) == nil)
        #expect(await fixture.status { _ = try await fixture.vault.collections.create(label: "bad\u{1b}") } == .invalidName)
        #expect(await fixture.status { try await fixture.vault.collections.setAlias("", to: web.id) } == .invalidArgument)
        #expect(await fixture.status { try await fixture.vault.collections.setAlias("a\u{7f}", to: web.id) } == .invalidName)
        #expect(await fixture.status {
            _ = try await fixture.vault.collections.createItem(in: "ffffffffffffffff", label: "x", attributes: [:], value: SecretBytes(utf8: "v"))
        } == .itemNotFound)
        // The error shows the control character escaped, never raw.
        do throws(VaultError) {
            _ = try await fixture.vault.collections.create(label: "bad\u{1b}[31m")
            Issue.record("a control character was accepted")
        } catch {
            #expect(!error.message.contains("\u{1b}") && error.message.contains("bad\\e[31m"), "\(error.message)")
        }
    }

    @Test("SPEC D9: an edited collection record is tampered, never read as another label")
    func tamperedCollection() async throws {
        let fixture = try await TestVault()
        let a = try await fixture.vault.collections.create(label: "A")
        let b = try await fixture.vault.collections.create(label: "B")
        // Moving B's sealed record under A's identifier.
        try await fixture.rawDatabase().write { db in
            let sealed = try #require(try Data.fetchOne(db, sql: "SELECT sealed FROM collection WHERE id = ?", arguments: [b.id]))
            try db.execute(sql: "UPDATE collection SET sealed = ? WHERE id = ?", arguments: [sealed, a.id])
        }
        #expect(await fixture.status { _ = try await fixture.vault.collections.collection(a.id) } == .tampered)
        #expect(await fixture.status { _ = try await fixture.vault.collections.list() } == .tampered)
    }
}
