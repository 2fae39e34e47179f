import Foundation
import SesameLinuxTesting
import SesameSecretService
import SesameTesting
import Testing

/// libsecret's own command line against Sesame's Secret Service (which it
/// reaches through a DH session, as every libsecret client does).
@Suite("Secret Service: secret-tool store, lookup, search, clear", .serialized,
       .enabled(if: SecretServiceFixture.missing.isEmpty, SecretServiceFixture.missingNote))
struct SecretToolTests {
    @Test("SPEC D10: store, lookup, search --all --unlock and clear behave as against gnome-keyring")
    func storeLookupSearchClear() async throws {
        try await SecretServiceFixture.with { fixture in

            let stored = try await fixture.secretTool(["store", "--label=Mail account", "service", "mail", "user", "ana"], input: "pässwörd 1")
            #expect(stored.status == 0, "\(stored.output)")
            let second = try await fixture.secretTool(["store", "--label=Chat", "service", "chat", "user", "ana"], input: "chat-secret")
            #expect(second.status == 0, "\(second.output)")

            let lookup = try await fixture.secretTool(["lookup", "service", "mail", "user", "ana"])
            #expect(lookup.status == 0)
            #expect(lookup.output == "pässwörd 1")

            let missing = try await fixture.secretTool(["lookup", "service", "nothing"])
            #expect(missing.status != 0)
            #expect(missing.output.isEmpty)

            let search = try await fixture.secretTool(["search", "--all", "--unlock", "user", "ana"])
            #expect(search.status == 0, "\(search.output)")
            #expect(search.output.contains("label = Mail account"))
            #expect(search.output.contains("secret = pässwörd 1"))
            #expect(search.output.contains("label = Chat"))
            #expect(search.output.contains("secret = chat-secret"))
            #expect(search.output.contains("attribute.service = mail"))
            // secret-tool prints the item path's last element ("[/1]" from gnome-keyring).
            #expect(search.output.hasPrefix("[/i"), "\(search.output)")

            // Storing again with the same attributes replaces, as gnome-keyring does.
            let replaced = try await fixture.secretTool(["store", "--label=Mail account", "service", "mail", "user", "ana"], input: "new one")
            #expect(replaced.status == 0)
            #expect(try await fixture.secretTool(["lookup", "service", "mail", "user", "ana"]).output == "new one")
            #expect(try await fixture.store.searchItems(attributes: ["service": "mail"], in: nil).count == 1)

            let clear = try await fixture.secretTool(["clear", "service", "mail"])
            #expect(clear.status == 0, "\(clear.output)")
            #expect(try await fixture.secretTool(["lookup", "service", "mail", "user", "ana"]).status != 0)
            #expect(try await fixture.secretTool(["lookup", "service", "chat"]).output == "chat-secret")
        }
    }

    @Test("SPEC D10: lookup of an item that needs its owner prompts, and succeeds when the owner passes")
    func lookupUnlocksThroughPrompt() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        try await SecretServiceFixture.with(store) { fixture in
            #expect(try await fixture.secretTool(["store", "--label=Guarded", "k", "v"], input: "guarded value").status == 0)
            let item = try #require(try await store.searchItems(attributes: ["k": "v"], in: nil).first)
            #expect(try await store.needsAuthentication(item.id, for: SecretServiceCaller(busName: ":1.999", pid: 0, executable: nil)))

            let lookup = try await fixture.secretTool(["lookup", "k", "v"])
            #expect(lookup.output == "guarded value", "\(lookup.output)")
            let reasons = await store.reasons
            #expect(reasons.count == 1)
            #expect(reasons.first?.contains("secret-tool") == true, "\(reasons)")
            #expect(reasons.first?.contains("\"Guarded\"") == true, "\(reasons)")

            // The opening was that secret-tool's (SPEC D10, "for the caller"): the next program prompts again.
            let again = try await fixture.secretTool(["lookup", "k", "v"])
            #expect(again.output == "guarded value", "\(again.output)")
            #expect(await store.reasons.count == 2, "a second program is not served by the first one's Unlock")
        }
    }

    @Test("SPEC D10: lookup of an item whose prompt is cancelled gets nothing")
    func lookupCancelled() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        await store.setAuthenticateOutcome(.cancel)
        try await SecretServiceFixture.with(store) { fixture in
            #expect(try await fixture.secretTool(["store", "--label=Guarded", "k", "v"], input: "guarded value").status == 0)
            let lookup = try await fixture.secretTool(["lookup", "k", "v"])
            #expect(lookup.status != 0)
            #expect(!lookup.output.contains("guarded value"))
            #expect(await store.cancellations == 1)
        }
    }
}
