import Foundation
@testable import Sesame
import SesameTesting
import Testing

@Suite("SPEC D1, D3, D5, D6: reading protected items")
struct VaultAuthenticationTests {
    @Test("SPEC D1: biometrics locked out → the device passcode lifts the lockout first, then the item's scan")
    func lockout() async throws {
        let fixture = try await TestVault()
        try await fixture.add("bio", accessControl: .biometryAny)
        #expect(await fixture.machine.lockOut() == .biometryLockout)
        #expect(await BiometryState.current(on: fixture.context()) == .lockedOut)
        let scansBefore = fixture.sensor.scansStarted
        fixture.presenter.answerSecrets(.enter("device-1234"))
        fixture.sensor.present(.match)
        #expect(try await fixture.read("bio") == "secret")
        #expect(fixture.presenter.secretRequests.map(\.kind) == [.devicePasscode])
        #expect(fixture.sensor.scansStarted > scansBefore)
        #expect(await BiometryState.current(on: fixture.context()) == .available)
    }

    @Test("SPEC D1: biometrics not available → the item cannot be read and the caller is told why")
    func notAvailable() async throws {
        let fixture = try await TestVault()
        try await fixture.add("bio", accessControl: .biometryAny)
        fixture.sensor.unenrolAll()
        guard case .notAvailable = await BiometryState.current(on: fixture.context()) else {
            Issue.record("expected notAvailable")
            return
        }
        do {
            _ = try await fixture.read("bio")
            Issue.record("expected notAvailable")
        } catch let error as VaultError {
            #expect(error.status == .notAvailable)
            #expect(error.message.contains("biometrics"))
            #expect(error.message.lowercased().contains("enrol"))
        }
        #expect(fixture.presenter.prompts.isEmpty)
    }

    @Test("SPEC D3: the vault prompts itself with the operation prompt text")
    func vaultPrompts() async throws {
        let fixture = try await TestVault()
        try await fixture.add("bio", accessControl: .biometryAny)
        fixture.sensor.present(.match)
        let value = try await fixture.vault.items.read(service: "svc", account: "bio", operationPrompt: "Sign in to the bank")
        #expect(value.count == 6)
        #expect(fixture.presenter.prompts.count == 1)
        #expect(fixture.presenter.prompts.first?.reason == "Sign in to the bank")
    }

    @Test("SPEC D3, A12: a context authorised ahead of time reads without a second prompt")
    func preAuthorised() async throws {
        let fixture = try await TestVault()
        try await fixture.add("bio", accessControl: .biometryCurrentSet)
        let context = fixture.context()
        fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryCurrentSet, operation: .useItem, localizedReason: "Unlock")
        let prompts = fixture.presenter.prompts.count
        let scans = fixture.sensor.scansStarted
        #expect(try await fixture.read("bio", context: context) == "secret")
        #expect(try await fixture.read("bio", context: context) == "secret")
        #expect(fixture.presenter.prompts.count == prompts)
        #expect(fixture.sensor.scansStarted == scans)
    }

    @Test("SPEC D3, A6: several reads inside the reuse window → one prompt")
    func reuseWindow() async throws {
        let fixture = try await TestVault()
        try await fixture.add("a", accessControl: .biometryAny)
        try await fixture.add("b", accessControl: .biometryAny)
        let context = fixture.context()
        context.reuseDuration = 60
        fixture.sensor.present(.match)
        #expect(try await fixture.read("a", context: context) == "secret")
        #expect(try await fixture.read("b", context: context) == "secret")
        #expect(try await fixture.read("a", context: fixture.context().reusing(60)) == "secret")
        #expect(fixture.sensor.scansStarted == 1)
    }

    @Test("SPEC D5: after an enrolment change a biometryCurrentSet item is invalidated; biometryAny and userPresence survive")
    func enrolmentChange() async throws {
        let fixture = try await TestVault()
        try await fixture.add("current", accessControl: .biometryCurrentSet)
        try await fixture.add("any", accessControl: .biometryAny)
        try await fixture.add("presence", accessControl: .userPresence)
        fixture.sensor.present(.match)
        #expect(try await fixture.read("current") == "secret")

        fixture.sensor.enrol("another")
        fixture.sensor.present(.match)
        #expect(await fixture.status { _ = try await fixture.read("current") } == .itemInvalidated)
        fixture.sensor.present(.match)
        #expect(try await fixture.read("any") == "secret")
        fixture.sensor.present(.match)
        #expect(try await fixture.read("presence") == "secret")
        // Permanently: removing the new finger again does not revive it, and no scan is wasted on it.
        fixture.sensor.unenrol("another")
        let scans = fixture.sensor.scansStarted
        #expect(await fixture.status { _ = try await fixture.read("current") } == .itemInvalidated)
        #expect(fixture.sensor.scansStarted == scans)
        #expect(try await fixture.vault.items.contains(service: "svc", account: "current"))
    }

    @Test("SPEC D5: the domain state of the evaluation that authorised the read is the one used")
    func domainStateOfThatEvaluation() async throws {
        let fixture = try await TestVault()
        try await fixture.add("current", accessControl: .biometryCurrentSet)
        let context = fixture.context()
        fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryCurrentSet, operation: .useItem, localizedReason: "Unlock")
        fixture.sensor.enrol("intruder")
        // Authorised before the change, with the creation-time enrolment.
        #expect(try await fixture.read("current", context: context) == "secret")
        fixture.sensor.present(.match)
        #expect(await fixture.status { _ = try await fixture.read("current") } == .itemInvalidated)
    }

    @Test("SPEC D6: applicationPassword items need the right password on the context; a wrong one is authFailed")
    func applicationPassword() async throws {
        let fixture = try await TestVault()
        let creating = fixture.context()
        #expect(await fixture.status { try await fixture.add("token", accessControl: .applicationPassword, context: creating) } == .authFailed)
        creating.setCredential(SecretBytes(utf8: "server-supplied"), type: .applicationPassword)
        try await fixture.add("token", accessControl: .applicationPassword, context: creating)

        let right = fixture.context()
        right.setCredential(SecretBytes(utf8: "server-supplied"), type: .applicationPassword)
        #expect(try await fixture.read("token", context: right) == "secret")

        let wrong = fixture.context()
        wrong.setCredential(SecretBytes(utf8: "guess"), type: .applicationPassword)
        #expect(await fixture.status { _ = try await fixture.read("token", context: wrong) } == .authFailed)

        fixture.presenter.answerSecrets(.enter("server-supplied"))
        #expect(try await fixture.read("token") == "secret", "the vault asks for the password when none is set")
        #expect(fixture.presenter.events.filter { if case .askedForSecret = $0 { true } else { false } }.count == 1)
    }

    @Test("SPEC D6: the application password is bound into the key with `and`")
    func applicationPasswordAnd() async throws {
        let fixture = try await TestVault()
        let control = try AccessControl([.biometryAny, .applicationPassword], combination: .and)
        let context = fixture.context()
        context.setCredential(SecretBytes(utf8: "pw"), type: .applicationPassword)
        try await fixture.add("key", accessControl: control, context: context)
        fixture.sensor.present(.match)
        #expect(try await fixture.read("key", context: context) == "secret")
        let wrong = fixture.context()
        wrong.setCredential(SecretBytes(utf8: "nope"), type: .applicationPassword)
        fixture.sensor.present(.match)
        #expect(await fixture.status { _ = try await fixture.read("key", context: wrong) } == .authFailed)
    }
}

extension AuthenticationContext {
    func reusing(_ seconds: TimeInterval) -> AuthenticationContext {
        reuseDuration = seconds
        return self
    }
}
