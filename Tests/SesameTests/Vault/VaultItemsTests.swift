import Foundation
@testable import Sesame
import SesameTesting
import Testing

@Suite("SPEC D2, D4: vault items")
struct VaultItemsTests {
    @Test("SPEC D2: an item keeps its service, account, value, label, dates, accessibility and access control")
    func roundTrip() async throws {
        let fixture = try await TestVault()
        let control = try AccessControl([.devicePasscode, .applicationPassword], combination: .or)
        let context = fixture.context()
        context.setCredential(SecretBytes(utf8: "pw"), type: .applicationPassword)
        try await fixture.vault.items.add(SecretBytes(utf8: "v1"), service: "svc", account: "a", label: "Label",
                                    accessibility: .afterFirstUnlockThisDeviceOnly, accessControl: control, context: context)
        let items = try await fixture.vault.items.list()
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.service == "svc" && item.account == "a" && item.label == "Label")
        #expect(item.accessibility == .afterFirstUnlockThisDeviceOnly && item.accessControl == control)
        #expect(item.created == item.modified)
        #expect(try await fixture.read("a", context: context) == "v1")
        fixture.machine.clock.advance(by: 10)
        try await fixture.vault.items.update(SecretBytes(utf8: "v2"), service: "svc", account: "a", operationPrompt: "Change", context: context)
        #expect(try await fixture.read("a", context: context) == "v2")
        let updated = try #require(try await fixture.vault.items.list().first)
        #expect(updated.modified > updated.created)
    }

    @Test("SPEC D4: one item's attributes, as list gives them, without its value; missing is itemNotFound; an edited row is tampered")
    func attributesOfOne() async throws {
        let fixture = try await TestVault()
        try await fixture.add("a", accessControl: .devicePasscode, accessibility: .afterFirstUnlock)
        try await fixture.add("b")
        let listed = try #require(try await fixture.vault.items.list().first { $0.account == "a" })
        #expect(try await fixture.vault.items.attributes(service: "svc", account: "a") == listed)
        #expect(await fixture.status { _ = try await fixture.vault.items.attributes(service: "svc", account: "zz") } == .itemNotFound)
        let (a, b) = (fixture.vault.subkeys.lookup(table: "item", service: "svc", account: "a"),
                      fixture.vault.subkeys.lookup(table: "item", service: "svc", account: "b"))
        try await fixture.rawDatabase().write { db in
            // The label is sealed (SPEC D9): the attacker can only swap in another row's sealed attributes.
            try db.execute(sql: "UPDATE item SET attributes = (SELECT attributes FROM item WHERE lookup = ?) WHERE lookup = ?",
                           arguments: [Data(a), Data(b)])
        }
        #expect(await fixture.status { _ = try await fixture.vault.items.attributes(service: "svc", account: "b") } == .tampered)
        // One tampered row does not hide the others' attributes.
        #expect(try await fixture.vault.items.attributes(service: "svc", account: "a") == listed)
    }

    @Test("SPEC D2: the five accessibility classes; ThisDeviceOnly ones are marked as never leaving", arguments: ItemAccessibility.allCases)
    func accessibility(accessibility: ItemAccessibility) async throws {
        let fixture = try await TestVault()
        try await fixture.add("a", accessibility: accessibility)
        #expect(try await fixture.vault.items.list().first?.accessibility == accessibility)
        #expect(accessibility.isThisDeviceOnly == accessibility.rawValue.hasSuffix("ThisDeviceOnly"))
    }

    @Test("SPEC D2: whenPasscodeSetThisDeviceOnly needs a device passcode")
    func passcodeSet() async throws {
        let fixture = try await TestVault(machine: TestMachine(devicePasscode: nil))
        #expect(await fixture.status { try await fixture.add("a", accessibility: .whenPasscodeSetThisDeviceOnly) } == .notAvailable)
    }

    @Test("SPEC D2: invalid access controls are rejected; or/and are encoded and kept")
    func flags() async throws {
        #expect(throws: AccessControl.ValidationError.conflictingBiometryFlags) {
            try AccessControl([.biometryAny, .biometryCurrentSet])
        }
        let both = try AccessControl([.biometryAny, .devicePasscode], combination: .and)
        let either = try AccessControl([.biometryAny, .devicePasscode], combination: .or)
        #expect(both.wrappingFactorSets.count == 1)
        #expect(either.wrappingFactorSets.count == 2)
        #expect(AccessControl(canonicalEncoding: both.canonicalEncoding) == both)
        #expect(AccessControl(canonicalEncoding: "or:biometryAny,biometryCurrentSet") == nil)
        #expect(AccessControl(canonicalEncoding: "xor:biometryAny") == nil)
    }

    @Test("SPEC D2: `and` needs every factor; `or` opens with any one")
    func combinations() async throws {
        let fixture = try await TestVault()
        let both = try AccessControl([.biometryAny, .devicePasscode], combination: .and)
        let either = try AccessControl([.biometryAny, .devicePasscode], combination: .or)
        try await fixture.add("both", accessControl: both)
        try await fixture.add("either", accessControl: either)

        fixture.sensor.present(.match)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(try await fixture.read("both") == "secret")
        #expect(fixture.presenter.secretRequests.count == 1)

        fixture.sensor.present(.match)
        #expect(try await fixture.read("either") == "secret")
        #expect(fixture.presenter.secretRequests.count == 1, "biometrics alone is enough for `or`")

        fixture.sensor.present(.match)
        fixture.presenter.answerSecrets(.enter("wrong"), .cancel)
        #expect(await fixture.status { _ = try await fixture.read("both") } != nil)
    }

    @Test("SPEC D4: success, duplicateItem, itemNotFound, userCanceled, authFailed, interactionNotAllowed")
    func statuses() async throws {
        let fixture = try await TestVault()
        #expect(VaultError.Status.success.rawValue == 0)
        #expect(await fixture.status { try await fixture.add("plain") } == nil)
        #expect(await fixture.status { try await fixture.add("plain") } == .duplicateItem)
        #expect(await fixture.status { _ = try await fixture.read("missing") } == .itemNotFound)
        #expect(await fixture.status { try await fixture.vault.items.delete(service: "svc", account: "missing") } == .itemNotFound)

        try await fixture.add("bio", accessControl: .biometryAny)
        fixture.presenter.press(.cancel)
        #expect(await fixture.status { _ = try await fixture.read("bio") } == .userCanceled)

        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        #expect(await fixture.status { _ = try await fixture.read("bio") } == .authFailed)

        let quiet = fixture.context()
        quiet.interactionNotAllowed = true
        #expect(await fixture.status { _ = try await fixture.read("bio", context: quiet) } == .interactionNotAllowed)

        for status in VaultError.Status.allCases where status != .success {
            #expect(!VaultError(status, "why").message.isEmpty)
        }
        #expect(VaultError.Status.userCanceled.rawValue == -128)
        #expect(VaultError.Status.itemNotFound.rawValue == -25300)
        #expect(VaultError.Status.authFailed.rawValue == -25293)
        #expect(VaultError.Status.duplicateItem.rawValue == -25299)
        #expect(VaultError.Status.interactionNotAllowed.rawValue == -25308)
    }

    @Test("SPEC D4: every failure says why, naming the item")
    func messages() async throws {
        let fixture = try await TestVault()
        do {
            _ = try await fixture.read("nothing-here")
            Issue.record("expected itemNotFound")
        } catch let error as VaultError {
            #expect(error.message.contains("nothing-here"))
        }
    }

    @Test("SPEC D2: list and contains never prompt and never return values; delete removes")
    func listContainsDelete() async throws {
        let fixture = try await TestVault()
        try await fixture.add("a", accessControl: .biometryAny)
        try await fixture.add("b", service: "other", accessControl: .devicePasscode)
        #expect(try await fixture.vault.items.contains(service: "svc", account: "a"))
        #expect(!(try await fixture.vault.items.contains(service: "svc", account: "b")))
        #expect(try await fixture.vault.items.list().map(\.account) == ["b", "a"])
        #expect(try await fixture.vault.items.list(service: "svc").map(\.account) == ["a"])
        #expect(fixture.presenter.events.isEmpty)
        #expect(fixture.sensor.scansStarted == 0)
        try await fixture.vault.items.delete(service: "svc", account: "a")
        #expect(!(try await fixture.vault.items.contains(service: "svc", account: "a")))
    }
}
