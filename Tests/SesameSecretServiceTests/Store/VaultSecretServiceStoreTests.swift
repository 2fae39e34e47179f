import Foundation
import Sesame
import SesameSecretService
import SesameTesting
import Testing

/// The vault as the Secret Service's store, over a real vault file and the
/// simulated sensor: what one client's `Unlock` opens, and what a client can
/// change or replace (SPEC D10, D11).
@Suite("VaultSecretServiceStore: a prompt opens exactly what it named, for its client (SPEC D10, D11)")
struct VaultSecretServiceStoreTests {
    static let first = SecretServiceCaller(busName: ":1.10", pid: 0, executable: nil)
    static let second = SecretServiceCaller(busName: ":1.11", pid: 0, executable: nil)

    struct Setup {
        let fixture: TestVault
        let store: VaultSecretServiceStore
        let collection: String
        let wifi: SecretServiceItemID
        let bank: SecretServiceItemID

        /// "harmless wifi" and "BANK password", both behind the finger; the owner's `--reuse` is `reuse` seconds.
        init(reuse: TimeInterval = 0) async throws {
            let fixture = try await TestVault()
            self.fixture = fixture
            collection = try await fixture.vault.collections.create(label: "Login", alias: "default").id
            let wifi = try await fixture.vault.collections.createItem(in: collection, label: "harmless wifi", attributes: ["ssid": "home"],
                                                          value: SecretBytes(utf8: "wifi-pass"), accessControl: .biometryAny)
            let bank = try await fixture.vault.collections.createItem(in: collection, label: "BANK password", attributes: ["bank": "main"],
                                                          value: SecretBytes(utf8: "bank-pass"), accessControl: .biometryAny)
            self.wifi = SecretServiceItemID(collection: collection, item: wifi.id)
            self.bank = SecretServiceItemID(collection: collection, item: bank.id)
            store = VaultSecretServiceStore(vault: fixture.vault, defaultAccessControl: Vault.noAccessControl) {
                let context = fixture.context()
                context.reuseDuration = reuse
                return context
            }
        }

        /// The owner's finger passes the prompt of `caller` for `items`.
        func unlock(_ items: [SecretServiceItemID], for caller: SecretServiceCaller) async throws {
            fixture.sensor.present(.match)
            try await store.authenticate(items, reason: "test", for: caller)
        }

        func isLocked(_ error: any Error, _ item: SecretServiceItemID) -> Bool {
            (error as? SecretServiceStoreError) == .locked(item)
        }
    }

    @Test("D10: unlocking \"harmless wifi\" opens it alone: the BANK item of the same access control stays locked, for GetSecret too")
    func promptOpensWhatItNamed() async throws {
        let setup = try await Setup()
        try await setup.unlock([setup.wifi], for: Self.first)
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.first) == false)
        let read = try await setup.store.secret(of: setup.wifi, for: Self.first)
        #expect(read.value.constantTimeEquals(SecretBytes(utf8: "wifi-pass")))
        #expect(try await setup.store.needsAuthentication(setup.bank, for: Self.first) == true)
        await #expect { try await setup.store.secret(of: setup.bank, for: Self.first) } throws: { setup.isLocked($0, setup.bank) }
        await #expect { try await setup.store.setSecret(of: setup.bank, SecretServiceSecret(value: SecretBytes(utf8: "x"), contentType: "text/plain"), for: Self.first) } throws: { setup.isLocked($0, setup.bank) }
        // Another client: nothing opened for it.
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.second) == true)
        // A second prompt naming the BANK opens it too, and the first opening still holds.
        try await setup.unlock([setup.bank], for: Self.first)
        #expect(try await setup.store.needsAuthentication(setup.bank, for: Self.first) == false)
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.first) == false)
    }

    @Test("D10: a locked item is not relabelled nor given new attributes; an opened one is, and the prompt then shows what its opener stored")
    func relabelNeedsTheAccessControl() async throws {
        let setup = try await Setup()
        await #expect { try await setup.store.setItemLabel(setup.bank, label: "harmless wifi 2", for: Self.first) } throws: { setup.isLocked($0, setup.bank) }
        await #expect { try await setup.store.setItemAttributes(setup.bank, attributes: ["ssid": "x"], for: Self.first) } throws: { setup.isLocked($0, setup.bank) }
        #expect(try await setup.store.item(setup.bank).label == "BANK password")
        #expect(try await setup.store.item(setup.bank).attributes == ["bank": "main"])
        try await setup.unlock([setup.bank], for: Self.first)
        try await setup.store.setItemLabel(setup.bank, label: "Bank (main)", for: Self.first)
        #expect(try await setup.store.item(setup.bank).label == "Bank (main)")
        await #expect { try await setup.store.setItemLabel(setup.bank, label: "other", for: Self.second) } throws: { setup.isLocked($0, setup.bank) }
    }

    @Test("D10, D11: CreateItem(replace) of a locked item is refused and leaves it whole; of an opened one it keeps the item's access control")
    func replaceNeedsTheAccessControl() async throws {
        let setup = try await Setup()
        let secret = SecretServiceSecret(value: SecretBytes(utf8: "attacker"), contentType: "text/plain")
        await #expect {
            _ = try await setup.store.createItem(in: setup.collection, label: "BANK password", attributes: ["bank": "main"],
                                                 secret: secret, replacing: true, for: Self.first)
        } throws: { setup.isLocked($0, setup.bank) }
        let kept = try await setup.fixture.vault.collections.item(setup.bank.item, inCollection: setup.collection)
        #expect(kept.accessControl == .biometryAny)
        #expect(try await setup.fixture.vault.collections.items(inCollection: setup.collection).count == 2)
        try await setup.unlock([setup.bank], for: Self.first)
        let replaced = try await setup.store.createItem(in: setup.collection, label: "BANK password", attributes: ["bank": "main"],
                                                        secret: secret, replacing: true, for: Self.first)
        #expect(replaced.id == setup.bank)
        #expect(try await setup.fixture.vault.collections.item(setup.bank.item, inCollection: setup.collection).accessControl == .biometryAny,
                "the replacement weakened the item (the server's default access is none)")
    }

    @Test("D10: with the owner's --reuse, one client's scan does not open an item for another client; that client's own prompt needs no new scan")
    func reuseWindowStaysPerClient() async throws {
        let setup = try await Setup(reuse: 60)
        try await setup.unlock([setup.wifi], for: Self.first)
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.first) == false)
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.second) == true)
        await #expect { try await setup.store.secret(of: setup.wifi, for: Self.second) } throws: { setup.isLocked($0, setup.wifi) }
        // Its own prompt: the window spares the finger, but the opening is still its own Unlock's.
        let scans = setup.fixture.sensor.scansStarted
        try await setup.store.authenticate([setup.wifi], reason: "test", for: Self.second)
        #expect(setup.fixture.sensor.scansStarted == scans)
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.second) == false)
    }

    @Test("D10: Lock ends every client's openings; a client leaving ends its own")
    func lockAndLeave() async throws {
        let setup = try await Setup()
        try await setup.unlock([setup.wifi], for: Self.first)
        try await setup.unlock([setup.wifi], for: Self.second)
        await setup.store.callerLeft(Self.first)
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.first) == true)
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.second) == false)
        #expect(try await setup.store.lock([setup.wifi]) == [setup.wifi])
        #expect(try await setup.store.needsAuthentication(setup.wifi, for: Self.second) == true)
    }

    @Test("D10: the `default` alias always resolves, making a \"Login\" collection once, as gnome-keyring does; other aliases may point nowhere")
    func defaultAliasResolves() async throws {
        let fixture = try await TestVault()
        let store = VaultSecretServiceStore(vault: fixture.vault, defaultAccessControl: Vault.noAccessControl) { fixture.context() }
        #expect(try await store.readAlias("work") == nil)
        let login = try #require(try await store.readAlias(VaultSecretServiceStore.defaultAlias))
        #expect(try await fixture.vault.collections.collection(login).label == VaultSecretServiceStore.defaultCollectionLabel)
        #expect(try await store.readAlias("default") == login, "resolved once, then stable")
        #expect(try await fixture.vault.collections.list().count == 1)
    }
}
