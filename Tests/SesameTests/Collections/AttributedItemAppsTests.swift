import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// The apps an attributed item records (SPEC D13), stored with the item
/// (SPEC D8) and sealed with its other attributes (SPEC D9): round trips
/// through a vault file, the one rule that reads them, and the changes
/// that keep everything else of the row.
@Suite("Secret Service view: the app that made an item and the apps its owner allowed (SPEC D8, D9, D13)")
struct AttributedItemAppsTests {
    static let firefox = AppIdentity(kind: .flatpak, id: "org.mozilla.firefox")!
    static let chromium = AppIdentity(kind: .executable, id: "/usr/bin/chromium")!
    static let signal = AppIdentity(kind: .snap, id: "signal-desktop")!
    static let editor = AppIdentity(kind: .systemdUnit, id: "org.gnome.TextEditor")!

    static func create(_ fixture: TestVault, in collection: String, _ attributes: [String: String] = ["a": "1"], value: String = "secret",
                       accessControl: AccessControl = Vault.noAccessControl, replacing: Bool = false,
                       app: AppIdentity?) async throws -> AttributedItem {
        try await fixture.vault.collections.createItem(in: collection, label: "L", attributes: attributes, value: SecretBytes(utf8: value),
                                                       accessControl: accessControl, replacing: replacing, app: app)
    }

    /// The stored columns that hold the value and its protection.
    static func valueColumns(_ fixture: TestVault, _ item: AttributedItem) async throws -> [Data?] {
        let lookup = Data(fixture.vault.subkeys.lookup(table: "item", service: VaultCollections.service(ofCollection: item.collection), account: item.id))
        return try await fixture.vault.rows.readDatabase { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT id, wrappings, commitment, ciphertext FROM item WHERE lookup = ?", arguments: [lookup]))
            return [Data(String(row["id"] as Int64).utf8), row["wrappings"], row["commitment"], row["ciphertext"]]
        }
    }

    @Test("SPEC D13, D8: the app and the allowed apps round-trip through the vault file and a reopen")
    func roundTrip() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Web")
        let item = try await Self.create(fixture, in: collection.id, app: Self.firefox)
        #expect(item.app == Self.firefox && item.allowedApps.isEmpty)
        try await fixture.vault.collections.allowApp(Self.signal, forItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.allowApp(Self.chromium, forItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.allowApp(Self.editor, forItem: item.id, inCollection: collection.id)
        let reopened = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        let read = try await reopened.collections.item(item.id, inCollection: collection.id)
        #expect(read.app == Self.firefox)
        #expect(read.allowedApps == [Self.signal, Self.editor, Self.chromium], "sorted, strongest kind first")
        #expect(try await reopened.collections.items(inCollection: collection.id) == [read])
        #expect(try await reopened.collections.searchItems(attributes: ["a": "1"]) == [read])
        // Read as the app that made it: another app would be asked for first (SPEC D13).
        let asFirefox = reopened.makeContext()
        asFirefox.askingApp = Self.firefox
        let value = try await reopened.collections.secret(ofItem: item.id, inCollection: collection.id, operationPrompt: "Read", context: asFirefox)
        #expect(AttributedItemsTests.text(value) == "secret")
        // An item made without an app records none, and is open to every app as before.
        let open = try await Self.create(fixture, in: collection.id, ["b": "2"], app: nil)
        #expect(open.app == nil && open.allowedApps.isEmpty && open.admits(Self.firefox) && open.admits(nil))
    }

    @Test("SPEC D13: admits is true for an item without an app, its own app and the allowed ones; false for others and for an unknown asker")
    func admits() {
        func item(app: AppIdentity?, allowed: [AppIdentity]) -> AttributedItem {
            AttributedItem(id: "0123456789abcdef", collection: "c", label: "L", attributes: [:], contentType: "text/plain",
                           created: Date(timeIntervalSince1970: 0), modified: Date(timeIntervalSince1970: 0),
                           accessControl: Vault.noAccessControl, app: app, allowedApps: allowed)
        }
        let unbound = item(app: nil, allowed: [])
        let bound = item(app: Self.firefox, allowed: [])
        let shared = item(app: Self.firefox, allowed: [Self.signal])
        // An allowed list alone binds nothing: no recorded app means open to every app.
        let listOnly = item(app: nil, allowed: [Self.signal])
        let table: [(AttributedItem, AppIdentity?, Bool)] = [
            (unbound, nil, true), (unbound, Self.firefox, true), (unbound, Self.chromium, true),
            (bound, Self.firefox, true), (bound, Self.chromium, false), (bound, nil, false),
            (shared, Self.firefox, true), (shared, Self.signal, true), (shared, Self.chromium, false), (shared, nil, false),
            (listOnly, Self.chromium, true), (listOnly, nil, true),
            // Same id, other kind: another app.
            (bound, AppIdentity(kind: .snap, id: "org.mozilla.firefox"), false),
            (bound, AppIdentity(kind: .executable, id: "/org.mozilla.firefox"), false),
        ]
        for (item, asking, expected) in table {
            #expect(item.admits(asking) == expected, "\(String(describing: item.app)) \(item.allowedApps) asked by \(String(describing: asking))")
        }
    }

    @Test("SPEC D13, D8: allow, remove and bind never prompt and keep the value, its access control, label, attributes and created date")
    func changesKeepTheRest() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Web")
        let item = try await Self.create(fixture, in: collection.id, ["a": "1", "b": "2"], value: "kept",
                                         accessControl: .biometryCurrentSet, app: Self.firefox)
        let before = try await Self.valueColumns(fixture, item)
        fixture.machine.clock.advance(by: 10)
        try await fixture.vault.collections.allowApp(Self.signal, forItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.allowApp(Self.signal, forItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.allowApp(Self.chromium, forItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.removeAllowedApp(Self.chromium, fromItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.removeAllowedApp(Self.editor, fromItem: item.id, inCollection: collection.id)
        try await fixture.vault.collections.bindItem(item.id, inCollection: collection.id, to: Self.editor)
        #expect(fixture.presenter.prompts.isEmpty, "recording the owner's answer needs no second authentication")
        let changed = try await fixture.vault.collections.item(item.id, inCollection: collection.id)
        #expect(changed.app == Self.editor && changed.allowedApps == [Self.signal])
        #expect(changed.label == item.label && changed.attributes == item.attributes && changed.contentType == item.contentType)
        #expect(changed.accessControl == .biometryCurrentSet && changed.created == item.created && changed.modified > item.modified)
        #expect(try await Self.valueColumns(fixture, item) == before, "the value, its wrappings and commitment are the same bytes")
        fixture.sensor.present(.match)
        let asEditor = fixture.vault.makeContext()
        asEditor.askingApp = Self.editor
        #expect(AttributedItemsTests.text(try await fixture.vault.collections.secret(
            ofItem: item.id, inCollection: collection.id, operationPrompt: "Read", context: asEditor)) == "kept")
        // Cleared: open to every app again, and the owner's list is kept.
        try await fixture.vault.collections.bindItem(item.id, inCollection: collection.id, to: nil)
        let cleared = try await fixture.vault.collections.item(item.id, inCollection: collection.id)
        #expect(cleared.app == nil && cleared.allowedApps == [Self.signal] && cleared.admits(Self.chromium))
        #expect(await fixture.status { try await fixture.vault.collections.allowApp(Self.signal, forItem: "0000000000000000", inCollection: collection.id) }
                == .itemNotFound)
    }

    @Test("SPEC D13, D11: another app replaces an item only once allowed, and is then recorded with the allowed apps kept; an unknown replacer is refused")
    func replacement() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Web")
        let item = try await Self.create(fixture, in: collection.id, app: Self.firefox)
        try await fixture.vault.collections.allowApp(Self.signal, forItem: item.id, inCollection: collection.id)
        // Not allowed: refused without asking, nothing written.
        #expect(await fixture.status { _ = try await Self.create(fixture, in: collection.id, value: "new", replacing: true, app: Self.chromium) }
                == .interactionNotAllowed)
        #expect(try await fixture.vault.collections.item(item.id, inCollection: collection.id).app == Self.firefox)
        try await fixture.vault.collections.allowApp(Self.chromium, forItem: item.id, inCollection: collection.id)
        let replaced = try await Self.create(fixture, in: collection.id, value: "new", replacing: true, app: Self.chromium)
        #expect(replaced.id == item.id && replaced.app == Self.chromium && replaced.allowedApps == [Self.signal, Self.chromium])
        // SPEC D11: an unknown replacer (an import) never takes a bound item's place.
        #expect(await fixture.status { _ = try await Self.create(fixture, in: collection.id, value: "newer", replacing: true, app: nil) }
                == .interactionNotAllowed)
        #expect(try await fixture.vault.collections.item(item.id, inCollection: collection.id) == replaced)
        // The maker replaces its own item.
        let again = try await Self.create(fixture, in: collection.id, value: "newest", replacing: true, app: Self.chromium)
        #expect(again.id == item.id && again.app == Self.chromium)
        // A new item, not a replacement, allows nothing.
        let other = try await Self.create(fixture, in: collection.id, ["other": "x"], replacing: true, app: Self.editor)
        #expect(other.id != item.id && other.app == Self.editor && other.allowedApps.isEmpty)
    }

    @Test("SPEC D13: at most 64 allowed apps (the 65th is refused, the item unchanged); hostile ids are stored as given or refused")
    func bounds() async throws {
        let fixture = try await TestVault()
        let collection = try await fixture.vault.collections.create(label: "Web")
        let item = try await Self.create(fixture, in: collection.id, app: Self.firefox)
        let apps = (0..<64).map { AppIdentity(kind: .flatpak, id: "org.example.App\($0)")! }
        for app in apps { try await fixture.vault.collections.allowApp(app, forItem: item.id, inCollection: collection.id) }
        let full = try await fixture.vault.collections.item(item.id, inCollection: collection.id)
        #expect(full.allowedApps == apps.sorted())
        let refused = await #expect(throws: VaultError.self) {
            try await fixture.vault.collections.allowApp(Self.signal, forItem: item.id, inCollection: collection.id)
        }
        #expect(refused?.status == .invalidArgument)
        #expect(refused?.message.contains("at most 64") == true, "\(refused?.message ?? "")")
        #expect(try await fixture.vault.collections.item(item.id, inCollection: collection.id) == full)
        // An already allowed app is no 65th.
        try await fixture.vault.collections.allowApp(apps[3], forItem: item.id, inCollection: collection.id)

        // Control characters, a colon, a maximal path: stored as given, escaped when shown.
        let hostile = [
            AppIdentity(kind: .flatpak, id: "evil\n\u{1b}[31m:flatpak:org.mozilla.firefox")!,
            AppIdentity(kind: .executable, id: "/" + String(repeating: "x", count: AppIdentity.maximumIDLength - 1))!,
            AppIdentity(kind: .snap, id: "ünïcode ✓")!,
        ]
        for (index, app) in hostile.enumerated() {
            let made = try await Self.create(fixture, in: collection.id, ["hostile": "\(index)"], app: app)
            #expect(try await fixture.vault.collections.item(made.id, inCollection: collection.id).app == app)
            #expect(!app.description.contains("\n") && !app.description.contains("\u{1b}"))
        }
        // An executable not named by its absolute path would read back as another app ("flatpak:…"): refused everywhere.
        let forged = try #require(AppIdentity(kind: .executable, id: "flatpak:org.mozilla.firefox"))
        let attempts: [() async throws -> Void] = [
            { () async throws in _ = try await Self.create(fixture, in: collection.id, ["forged": "1"], app: forged) },
            { () async throws in try await fixture.vault.collections.bindItem(item.id, inCollection: collection.id, to: forged) },
            { () async throws in try await fixture.vault.collections.removeAllowedApp(apps[0], fromItem: item.id, inCollection: collection.id)
                try await fixture.vault.collections.allowApp(forged, forItem: item.id, inCollection: collection.id) },
        ]
        for attempt in attempts {
            #expect(await fixture.status(attempt) == .invalidArgument)
        }
        #expect(try await fixture.vault.collections.searchItems(attributes: ["forged": "1"]).isEmpty)
        #expect(try await fixture.vault.collections.item(item.id, inCollection: collection.id).app == Self.firefox)
    }

    @Test("SPEC D13: an export carries an item's name and value only; the imported item is an ordinary one, which no collection serves")
    func exportAndImport() async throws {
        let source = try await TestVault()
        let collection = try await source.vault.collections.create(label: "Web")
        let item = try await Self.create(source, in: collection.id, value: "exported", app: Self.firefox)
        try await source.vault.collections.allowApp(Self.signal, forItem: item.id, inCollection: collection.id)
        source.sensor.present(.match)
        let report = try await source.vault.export(passphrase: SecretBytes(utf8: "pp"), cost: .testing, operationPrompt: "Back up")
        #expect(report.transferred == 1 && report.skipped.isEmpty)
        let target = try await TestVault()
        let imported = try await target.vault.importItems(from: report.file, passphrase: SecretBytes(utf8: "pp"))
        #expect(imported.transferred == 1)
        let service = VaultCollections.service(ofCollection: collection.id)
        #expect(try await target.read(item.id, service: service) == "exported")
        // Not an attributed item there: the Secret Service never serves it, so no app gate is lost.
        #expect(try await target.vault.collections.searchItems(attributes: [:]).isEmpty)
        #expect(await target.status { _ = try await target.vault.collections.item(item.id, inCollection: collection.id) } == .itemNotFound)
    }
}
