import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// Ordinary items with lookup attributes (a git credential's): found through
/// the keyed-hash index, opening only the rows it names (SPEC D9).
@Suite("Ordinary items with lookup attributes: found through the index, apart from collections (SPEC D9)")
struct ServiceAttributesTests {
    static func add(_ fixture: TestVault, _ account: String, service: String = "git", attributes: [String: String]?) async throws {
        try await fixture.vault.items.addItem(SecretBytes(utf8: "v-" + account), service: service, account: account, label: nil,
                                        accessibility: .whenUnlocked, accessControl: Vault.noAccessControl, context: nil, dates: nil,
                                        attributes: attributes)
    }

    @Test("SPEC D9: among many items of a service, a lookup by attributes opens and finds only the matching one")
    func onlyTheMatchOpens() async throws {
        let fixture = try await TestVault()
        for n in 0..<40 {
            try await Self.add(fixture, "https://u@host\(n).tld", attributes: ["protocol": "https", "host": "host\(n).tld", "username": "u"])
        }
        try await Self.add(fixture, "plain", attributes: nil)
        try await Self.add(fixture, "https://u@host7.tld", service: "other", attributes: ["protocol": "https", "host": "host7.tld", "username": "u"])
        let web = try await fixture.vault.collections.create(label: "Web")
        _ = try await fixture.vault.collections.createItem(in: web.id, label: "same", attributes: ["protocol": "https", "host": "host7.tld", "username": "u"],
                                           value: SecretBytes(utf8: "c"))

        let found = try await fixture.vault.collections.attributeSearch(AttributeIndex.Query(attributes: ["host": "host7.tld"], service: "git"))
        #expect(found.rows.map(\.account) == ["https://u@host7.tld"] && found.opened == 1)
        #expect(try await fixture.vault.collections.searchItems(service: "git", attributes: ["host": "host7.tld"]).map(\.account) == ["https://u@host7.tld"])
        #expect(try await fixture.vault.collections.searchItems(service: "git", attributes: [:]).count == 40, "the plain item has no attributes to find")
        // A collection's search never finds a service's items, nor a service's search a collection's.
        #expect(try await fixture.vault.collections.searchItems(attributes: ["host": "host7.tld"]).map(\.label) == ["same"])
        #expect(try await fixture.vault.collections.searchItems(service: VaultCollections.service(ofCollection: web.id), attributes: [:]).isEmpty)
    }

    @Test("SPEC D9: an item's attributes go with it: replaced by name, deleted, its index entries follow")
    func replacedAndDeleted() async throws {
        let fixture = try await TestVault()
        try await Self.add(fixture, "a", attributes: ["host": "old.tld"])
        try await fixture.vault.items.addItem(SecretBytes(utf8: "new"), service: "git", account: "a", label: nil, accessibility: .whenUnlocked,
                                        accessControl: Vault.noAccessControl, context: nil, dates: nil, replacing: true,
                                        attributes: ["host": "new.tld"])
        #expect(try await fixture.vault.collections.searchItems(service: "git", attributes: ["host": "old.tld"]).isEmpty)
        #expect(try await fixture.vault.collections.searchItems(service: "git", attributes: ["host": "new.tld"]).map(\.account) == ["a"])
        try await fixture.vault.items.delete(service: "git", account: "a")
        #expect(try await fixture.vault.collections.searchItems(service: "git", attributes: ["host": "new.tld"]).isEmpty)
        #expect(try AttributedItemsTests.indexRows(fixture) == 0)
    }

    @Test("SPEC D10: a collection's service takes no ordinary item with attributes")
    func collectionServiceRefused() async throws {
        let fixture = try await TestVault()
        let web = try await fixture.vault.collections.create(label: "Web")
        #expect(await fixture.status { try await Self.add(fixture, "x", service: VaultCollections.service(ofCollection: web.id), attributes: ["a": "b"]) }
                == .invalidArgument)
    }
}
