import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// SPEC D11: nothing from outside lowers a protection. Replacing an
/// item (an import, a client's `CreateItem(replace)`) passes the existing
/// item's access control first, never prompting, and keeps it; relabelling
/// a protected item needs the same.
@Suite("Secret Service view: a replacement or relabel never lowers a protection (SPEC D10, D11)")
struct AttributedItemReplacementTests {
    /// The locked-item suite's setup: a test vault with one collection.
    typealias Setup = AttributedItemLockedTests.Setup

    @Test("D11: replacing a finger-protected item without its access control is interactionNotAllowed; it keeps its value and protection, and nothing is asked")
    func protectedItemIsKept() async throws {
        let setup = try await Setup()
        let original = try await setup.create("owner's value", .biometryAny)
        let scans = setup.fixture.sensor.scansStarted
        #expect(await setup.fixture.status { try await setup.create("intruder", replacing: true) } == .interactionNotAllowed)
        #expect(await setup.fixture.status { try await setup.create("intruder", replacing: true, context: setup.fixture.context()) } == .interactionNotAllowed)
        #expect(setup.fixture.sensor.scansStarted == scans, "a replacement started a scan")
        #expect(setup.fixture.presenter.prompts.isEmpty, "a replacement prompted")
        let kept = try await setup.onlyItem()
        #expect(kept.id == original.id && kept.accessControl == .biometryAny)
        setup.fixture.sensor.present(.match)
        #expect(try await setup.value(of: kept, setup.fixture.context()) == "owner's value")
    }

    @Test("D11: with a context authorised for it, the replacement happens and keeps the item's access control, not the weaker one asked for")
    func authorisedReplacementKeepsTheProtection() async throws {
        let setup = try await Setup()
        let original = try await setup.create("old", .biometryAny)
        let context = setup.fixture.context()
        setup.fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryAny, operation: .useItem, localizedReason: "Unlock")
        let replaced = try await setup.create("new", Vault.noAccessControl, replacing: true, context: context)
        #expect(replaced.id == original.id)
        #expect(replaced.accessControl == .biometryAny)
        #expect(try await setup.value(of: replaced, context) == "new")
    }

    @Test("D11: an application-password item is replaced only with its right password, which is checked, not assumed")
    func applicationPasswordIsChecked() async throws {
        let setup = try await Setup()
        let right = setup.fixture.context()
        right.setCredential(SecretBytes(utf8: "right password"), type: .applicationPassword)
        try await setup.create("kept", .applicationPassword, context: right)
        let wrong = setup.fixture.context()
        wrong.setCredential(SecretBytes(utf8: "wrong password"), type: .applicationPassword)
        #expect(await setup.fixture.status { try await setup.create("intruder", Vault.noAccessControl, replacing: true, context: wrong) } == .authFailed)
        let kept = try await setup.onlyItem()
        #expect(kept.accessControl == .applicationPassword)
        #expect(try await setup.value(of: kept, right) == "kept")
        let replaced = try await setup.create("new", Vault.noAccessControl, replacing: true, context: right)
        #expect(replaced.accessControl == .applicationPassword)
        #expect(try await setup.value(of: replaced, right) == "new")
    }

    @Test("D11: an item open to anyone is still replaced by an import or a client, with the access control asked for")
    func openItemIsReplaced() async throws {
        let setup = try await Setup()
        let original = try await setup.create("first copy")
        let replaced = try await setup.create("second copy", .devicePasscode, replacing: true)
        #expect(replaced.id == original.id && replaced.accessControl == .devicePasscode)
    }

    @Test("D10: a protected item's label and attributes change only on a context that satisfies its access control")
    func relabelNeedsTheAccessControl() async throws {
        let setup = try await Setup()
        let item = try await setup.create("value", .biometryAny)
        #expect(await setup.fixture.status { try await setup.fixture.vault.collections.setItemLabel("harmless", ofItem: item.id, inCollection: setup.collection) } == .interactionNotAllowed)
        #expect(await setup.fixture.status {
            try await setup.fixture.vault.collections.setItemAttributes(["x": "y"], ofItem: item.id, inCollection: setup.collection, context: setup.fixture.context())
        } == .interactionNotAllowed)
        #expect(try await setup.onlyItem().label == "Bank")
        let context = setup.fixture.context()
        setup.fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryAny, operation: .useItem, localizedReason: "Unlock")
        try await setup.fixture.vault.collections.setItemLabel("Bank (main)", ofItem: item.id, inCollection: setup.collection, context: context)
        #expect(try await setup.onlyItem().label == "Bank (main)")
    }

    @Test("SPEC D4: a value over 16 MiB is refused by name before anything is written; 16 MiB itself is stored")
    func valueSizeLimit() async throws {
        let setup = try await Setup()
        let over = SecretBytes([UInt8](repeating: 0x61, count: Vault.maximumValueSize + 1))
        await #expect {
            _ = try await setup.fixture.vault.collections.createItem(in: setup.collection, label: "Huge", attributes: [:], value: over)
        } throws: { error in
            guard let error = error as? VaultError else { return false }
            return error.status == .invalidArgument && error.message.contains("\"Huge\"") && error.message.contains("16 MiB")
        }
        #expect(await setup.fixture.status { try await setup.fixture.vault.items.add(over, service: "svc", account: "huge") } == .invalidArgument)
        #expect(try await setup.fixture.vault.collections.items(inCollection: setup.collection).isEmpty)
        let most = SecretBytes([UInt8](repeating: 0x61, count: Vault.maximumValueSize))
        _ = try await setup.fixture.vault.collections.createItem(in: setup.collection, label: "Largest", attributes: [:], value: most)
    }
}

/// The replacement suite's steps on the shared setup: one item "Bank" whose
/// attributes every replacement names.
extension AttributedItemLockedTests.Setup {
    @discardableResult
    func create(_ value: String, _ accessControl: AccessControl = Vault.noAccessControl, replacing: Bool = false,
                context: AuthenticationContext? = nil) async throws -> AttributedItem {
        try await AttributedItemsTests.create(fixture, in: collection, "Bank", ["bank": "main"], value: value, replacing: replacing,
                                                 accessControl: accessControl, context: context)
    }

    func onlyItem() async throws -> AttributedItem {
        let items = try await fixture.vault.collections.items(inCollection: collection)
        try #require(items.count == 1, "\(items)")
        return items[0]
    }

    func value(of item: AttributedItem, _ context: AuthenticationContext) async throws -> String {
        AttributedItemsTests.text(try await fixture.vault.collections.secret(ofItem: item.id, inCollection: collection, operationPrompt: "Read", context: context))
    }
}
