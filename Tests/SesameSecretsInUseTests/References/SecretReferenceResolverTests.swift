import Foundation
import Sesame
import SesameSecretsInUse
import SesameTesting
import Testing

/// `SecretReferenceResolver`: every referenced item exists before anything
/// is asked, and one prompt opens every item of an access control.
@Suite("SecretReferenceResolver: checked before any prompt, one prompt per access control")
struct SecretReferenceResolverTests {
    private func reference(_ name: String) -> SecretReference {
        SecretReference(service: "svc", name: name)
    }

    private func read(_ fixture: TestVault, _ references: [SecretReference]) async throws -> [SecretReference: SecretBytes] {
        try await SecretReferenceResolver(vault: fixture.vault).read(
            references, context: fixture.context(), reason: { "Give \($0.joined(separator: ", "))" },
            applicationPassword: { (_: Bool) async throws(VaultError) -> SecretBytes? in nil }, failure: { $0 })
    }

    private func text(_ value: SecretBytes?) -> String? {
        value?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test("D3: a missing reference is refused, naming it, before any prompt")
    func missingBeforePrompt() async throws {
        let fixture = try await TestVault()
        try await fixture.add("db", "db-secret", accessControl: .devicePasscode)
        let references = [reference("db"), reference("gone")]
        do throws(VaultError) {
            try await SecretReferenceResolver(vault: fixture.vault).requireExisting(references)
            Issue.record("a missing item was not refused")
        } catch {
            #expect(error.status == .itemNotFound)
            #expect(error.message == "no item gone in service svc")
        }
        #expect(fixture.presenter.prompts.isEmpty)
        #expect(fixture.presenter.secretRequests.isEmpty)
    }

    @Test("A12: two references under the same access control open with one prompt, which names both")
    func oneGroupOnePrompt() async throws {
        let fixture = try await TestVault()
        try await fixture.add("db", "db-secret", accessControl: .devicePasscode)
        try await fixture.add("api", "api-secret", accessControl: .devicePasscode)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        let values = try await read(fixture, [reference("db"), reference("api"), reference("db")])
        #expect(text(values[reference("db")]) == "db-secret")
        #expect(text(values[reference("api")]) == "api-secret")
        #expect(fixture.presenter.prompts.map(\.reason) == ["Give db, api"])
        #expect(fixture.presenter.secretRequests.count == 1)
    }

    @Test("A12: references under different access controls get one prompt each")
    func groupsPromptOnceEach() async throws {
        let fixture = try await TestVault()
        try await fixture.add("db", "db-secret", accessControl: .devicePasscode)
        try await fixture.add("api", "api-secret", accessControl: .devicePasscode)
        try await fixture.add("bio", "bio-secret", accessControl: .biometryAny)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        fixture.sensor.present(.match)
        let values = try await read(fixture, [reference("db"), reference("bio"), reference("api")])
        #expect(values.count == 3)
        #expect(text(values[reference("bio")]) == "bio-secret")
        #expect(fixture.presenter.prompts.map(\.reason) == ["Give db, api", "Give bio"])
    }

    @Test("D3: the application password is asked for once, only when an item's access control needs it")
    func applicationPasswordOnce() async throws {
        let fixture = try await TestVault()
        try await fixture.add("plain", "plain-secret")
        var asked: [Bool] = []
        _ = try await SecretReferenceResolver(vault: fixture.vault).read(
            [reference("plain")], context: fixture.context(), reason: { $0.joined() },
            applicationPassword: { (required: Bool) async throws(VaultError) -> SecretBytes? in
                asked.append(required)
                return nil
            }, failure: { $0 })
        #expect(asked.isEmpty)
        let password = SecretBytes(utf8: "app password")
        try await fixture.vault.items.add(SecretBytes(utf8: "guarded"), service: "svc", account: "guarded", accessibility: .whenUnlocked,
                                    accessControl: .applicationPassword, context: {
            let context = fixture.context()
            _ = context.setCredential(password, type: .applicationPassword)
            return context
        }())
        let values = try await SecretReferenceResolver(vault: fixture.vault).read(
            [reference("guarded"), reference("plain")], context: fixture.context(), reason: { $0.joined() },
            applicationPassword: { (required: Bool) async throws(VaultError) -> SecretBytes? in
                asked.append(required)
                return password
            }, failure: { $0 })
        #expect(asked == [true])
        #expect(text(values[reference("guarded")]) == "guarded")
    }
}
