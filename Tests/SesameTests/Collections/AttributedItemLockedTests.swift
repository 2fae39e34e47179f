import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// The Secret Service "Locked" property (SPEC D10): an item is locked while
/// reading it would need the owner, by the very rules `Vault.read` applies
/// (SPEC D1, D3, A6, A12). Asking never prompts and never counts an attempt.
@Suite("Secret Service view: Locked is the item's access control, unsatisfied (SPEC D10)")
struct AttributedItemLockedTests {
    struct Setup {
        let fixture: TestVault
        let collection: String

        init() async throws {
            fixture = try await TestVault()
            collection = try await fixture.vault.collections.create(label: "Login").id
        }

        func item(_ label: String, _ accessControl: AccessControl, context: AuthenticationContext? = nil) async throws -> String {
            try await AttributedItemsTests.create(fixture, in: collection, label, ["label": label], accessControl: accessControl,
                                                     context: context).id
        }

        func locked(_ item: String, _ context: AuthenticationContext? = nil) async throws -> Bool {
            try await fixture.vault.collections.needsAuthentication(item: item, inCollection: collection, context: context)
        }

        /// What asking must never change: scans, prompts, the attempt record.
        func untouched<T>(_ body: () async throws -> T) async throws -> T {
            let scans = fixture.sensor.scansStarted
            let prompts = fixture.presenter.prompts.count
            let record = try await fixture.machine.authenticators.attempts.read()
            let result = try await body()
            #expect(fixture.sensor.scansStarted == scans, "a scan started")
            #expect(fixture.presenter.prompts.count == prompts, "a prompt appeared")
            #expect(try await fixture.machine.authenticators.attempts.read() == record, "an attempt was counted")
            return result
        }
    }

    @Test("SPEC D10: an item without access control is never locked")
    func noAccessControl() async throws {
        let setup = try await Setup()
        let item = try await setup.item("open", Vault.noAccessControl)
        setup.fixture.sensor.setLockedOut(true)
        #expect(try await setup.untouched { try await setup.locked(item) } == false)
        #expect(try await setup.untouched { try await setup.locked(item, setup.fixture.context()) } == false)
    }

    @Test("SPEC D10, A12: a biometric item is locked until a context is authorised for it, and only on that context")
    func authorisedContext() async throws {
        let setup = try await Setup()
        let item = try await setup.item("finger", .biometryAny)
        let context = setup.fixture.context()
        #expect(try await setup.untouched { try await setup.locked(item, context) } == true)
        setup.fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryAny, operation: .useItem, localizedReason: "Unlock")
        #expect(try await setup.untouched { try await setup.locked(item, context) } == false)
        #expect(try await setup.untouched { try await setup.locked(item, setup.fixture.context()) } == true)
        // And the answer holds: the authorised context reads without a scan.
        let scans = setup.fixture.sensor.scansStarted
        _ = try await setup.fixture.vault.collections.secret(ofItem: item, inCollection: setup.collection, operationPrompt: "Read", context: context)
        #expect(setup.fixture.sensor.scansStarted == scans)
    }

    @Test("SPEC D10, A6: inside the reuse window a biometric item is unlocked; after it, or with another enrolment, locked again")
    func reuseWindow() async throws {
        let setup = try await Setup()
        let any = try await setup.item("any", .biometryAny)
        let presence = try await setup.item("presence", .userPresence)
        let passcode = try await setup.item("passcode", .devicePasscode)
        let both = try await setup.item("both", try AccessControl([.biometryAny, .devicePasscode], combination: .and))
        setup.fixture.sensor.present(.match)
        _ = try await setup.fixture.vault.collections.secret(ofItem: any, inCollection: setup.collection, operationPrompt: "Read",
                                                 context: setup.fixture.context().reusing(60))
        let reusing = setup.fixture.context().reusing(60)
        #expect(try await setup.untouched { try await setup.locked(any, reusing) } == false)
        #expect(try await setup.untouched { try await setup.locked(presence, reusing) } == false)
        #expect(try await setup.untouched { try await setup.locked(passcode, reusing) } == true, "the device passcode always prompts")
        #expect(try await setup.untouched { try await setup.locked(both, reusing) } == true)
        #expect(try await setup.untouched { try await setup.locked(any, setup.fixture.context()) } == true, "no reuse window: prompts")
        // The vault's own window applies when no context is given, as `read` does.
        #expect(try await setup.locked(any) == true)
        setup.fixture.vault.reuseDuration = 60
        #expect(try await setup.untouched { try await setup.locked(any) } == false)
        // The read itself then needs no scan: the answer was true to `read`.
        let scans = setup.fixture.sensor.scansStarted
        _ = try await setup.fixture.vault.collections.secret(ofItem: any, inCollection: setup.collection, operationPrompt: "Read")
        #expect(setup.fixture.sensor.scansStarted == scans)
        setup.fixture.sensor.enrol("intruder")
        #expect(try await setup.untouched { try await setup.locked(any) } == true, "another enrolment ends the window")
        setup.fixture.sensor.unenrol("intruder")
        setup.fixture.machine.clock.advance(by: 61)
        #expect(try await setup.untouched { try await setup.locked(any) } == true, "the window ended")
    }

    @Test("SPEC D10, D1: locked out or unavailable biometrics lock the item; asking counts nothing")
    func lockedOut() async throws {
        let setup = try await Setup()
        let item = try await setup.item("finger", .biometryAny)
        setup.fixture.sensor.present(.match)
        _ = try await setup.fixture.vault.collections.secret(ofItem: item, inCollection: setup.collection, operationPrompt: "Read")
        setup.fixture.vault.reuseDuration = 60
        #expect(try await setup.locked(item) == false)
        setup.fixture.sensor.setLockedOut(true)
        #expect(try await setup.untouched { try await setup.locked(item) } == true)
        setup.fixture.sensor.setLockedOut(false)
        setup.fixture.sensor.unplug()
        #expect(try await setup.untouched { try await setup.locked(item) } == true)
    }

    @Test("SPEC D10, D6: an application-password item is unlocked on a context that carries the password")
    func applicationPassword() async throws {
        let setup = try await Setup()
        let context = setup.fixture.context()
        context.setCredential(SecretBytes(utf8: "pw"), type: .applicationPassword)
        let item = try await setup.item("app", .applicationPassword, context: context)
        #expect(try await setup.untouched { try await setup.locked(item, setup.fixture.context()) } == true)
        let carrying = setup.fixture.context()
        carrying.setCredential(SecretBytes(utf8: "pw"), type: .applicationPassword)
        #expect(try await setup.untouched { try await setup.locked(item, carrying) } == false)
        carrying.invalidate()
        #expect(try await setup.locked(item, carrying) == true, "an invalidated context can no longer authenticate")
    }

    @Test("SPEC D10: secretIfUnlocked reads an unlocked item in one go and refuses a locked one without a scan, prompt or attempt")
    func secretIfUnlocked() async throws {
        let setup = try await Setup()
        let open = try await setup.item("open", Vault.noAccessControl)
        let finger = try await setup.item("finger", .biometryAny)
        let context = setup.fixture.context()
        func read(_ item: String) async throws -> (item: AttributedItem, value: SecretBytes)? {
            try await setup.fixture.vault.collections.secretIfUnlocked(ofItem: item, inCollection: setup.collection,
                                                           operationPrompt: { "Read \($0.label)" }, context: context)
        }
        let opened = try #require(try await setup.untouched { try await read(open) })
        #expect(opened.item.label == "open")
        #expect(opened.value.constantTimeEquals(SecretBytes(utf8: "secret")))
        setup.fixture.sensor.present(.match)
        #expect(try await setup.untouched { try await read(finger) } == nil, "locked: nil, and the waiting finger is not scanned")
        try await context.evaluateAccessControl(.biometryAny, operation: .useItem, localizedReason: "Unlock")
        let unlocked = try #require(try await setup.untouched { try await read(finger) })
        #expect(unlocked.value.constantTimeEquals(SecretBytes(utf8: "secret")))
        #expect(unlocked.item.accessControl == .biometryAny)
        #expect(await setup.fixture.status { _ = try await setup.fixture.vault.collections.secretIfUnlocked(
            ofItem: "ffffffffffffffff", inCollection: setup.collection, operationPrompt: { $0.label }, context: context) } == .itemNotFound)
    }

    @Test("SPEC D10: asking about an unknown item is itemNotFound")
    func unknownItem() async throws {
        let setup = try await Setup()
        #expect(await setup.fixture.status { _ = try await setup.locked("ffffffffffffffff") } == .itemNotFound)
    }
}
