import Foundation
import Sesame
@testable import SesameApple
import SesameTesting
import Testing

@Suite("SPEC D over KeychainItemStore and the simulated keychain")
struct KeychainItemStoreTests {
    let device = SimulatedLocalAuthentication()
    let keychain: SimulatedKeychain
    let store: KeychainItemStore

    init() {
        keychain = SimulatedKeychain(device: device)
        store = device.keychainStore(keychain)
    }

    @Test("SPEC D2: add, contains, read, update, delete")
    func lifecycle() async throws {
        try await store.add(Array("s3cret".utf8), service: "svc", account: "token")
        #expect(try await store.contains(service: "svc", account: "token"))
        #expect(try await store.read(service: "svc", account: "token", authentication: .skipUI) == Array("s3cret".utf8))
        try await store.update(Array("new".utf8), service: "svc", account: "token", authentication: .skipUI)
        #expect(try await store.read(service: "svc", account: "token", authentication: .skipUI) == Array("new".utf8))
        try await store.delete(service: "svc", account: "token")
        #expect(try await !store.contains(service: "svc", account: "token"))
        await #expect(throws: VaultError.itemNotFound) {
            _ = try await store.read(service: "svc", account: "token", authentication: .skipUI)
        }
        await #expect(throws: VaultError.itemNotFound) { try await store.delete(service: "svc", account: "token") }
    }

    @Test("SPEC D4: A second add is duplicateItem")
    func duplicate() async throws {
        try await store.add([1], service: "svc", account: "a")
        await #expect(throws: VaultError.duplicateItem) { try await store.add([2], service: "svc", account: "a") }
    }

    @Test("SPEC D3, D4: A protected read prompts; match reads, cancel is userCanceled, no match is authFailed")
    func prompted() async throws {
        try await store.add([7], service: "svc", account: "card", accessControl: .biometryAny)
        #expect(try await store.contains(service: "svc", account: "card"))
        #expect(device.evaluations == 0)
        device.script(.match)
        #expect(try await store.read(service: "svc", account: "card", authentication: .prompt("Show card")) == [7])
        device.script(.userCancel)
        await #expect(throws: VaultError.userCanceled) {
            _ = try await store.read(service: "svc", account: "card", authentication: .prompt("Show card"))
        }
        device.script(.noMatch)
        await #expect(throws: VaultError.authFailed) {
            _ = try await store.read(service: "svc", account: "card", authentication: .prompt("Show card"))
        }
    }

    @Test("SPEC D3: skip UI skips protected items; a context that may not interact gets interactionNotAllowed")
    func noUI() async throws {
        try await store.add([7], service: "svc", account: "card", accessControl: .userPresence)
        await #expect(throws: VaultError.itemNotFound) {
            _ = try await store.read(service: "svc", account: "card", authentication: .skipUI)
        }
        let adapter = SimulatedContextAdapter(device.makeContext())
        adapter.interactionNotAllowed = true
        await #expect(throws: VaultError.interactionNotAllowed) {
            _ = try await store.read(service: "svc", account: "card", authentication: .context(KeychainContext(adapter)))
        }
        #expect(device.evaluations == 0)
    }

    @Test("SPEC A12/D3: a context authenticated with evaluateAccessControl reads without a second prompt")
    func preAuthenticated() async throws {
        try await store.add([9], service: "svc", account: "key", accessControl: .biometryCurrentSet)
        let adapter = SimulatedContextAdapter(device.makeContext())
        device.script(.match)
        let result = await LAReplyBridge.run(adapter) { context, reply in
            context.evaluateAccessControl(
                KeychainAccessControl(.biometryCurrentSet, accessibility: .whenUnlockedThisDeviceOnly),
                operation: .useItem, localizedReason: "Use key", reply: reply
            )
        }
        #expect((try? result.get()) != nil)
        let prompts = device.evaluations
        #expect(try await store.read(service: "svc", account: "key", authentication: .context(KeychainContext(adapter))) == [9])
        #expect(device.evaluations == prompts)
    }

    @Test("SPEC D5: after an enrolment change biometryCurrentSet items are gone (Apple deletes them: itemNotFound); biometryAny and userPresence survive")
    func enrolmentChange() async throws {
        try await store.add([1], service: "svc", account: "current", accessControl: .biometryCurrentSet)
        try await store.add([2], service: "svc", account: "any", accessControl: .biometryAny)
        try await store.add([3], service: "svc", account: "presence", accessControl: .userPresence)
        device.setEnrolled(["right-index-finger", "intruder-thumb"])
        #expect(try await !store.contains(service: "svc", account: "current"))
        device.script(.match)
        await #expect(throws: VaultError.itemNotFound) {
            _ = try await store.read(service: "svc", account: "current", authentication: .prompt("Read"))
        }
        #expect(try await store.read(service: "svc", account: "any", authentication: .prompt("Read")) == [2])
        device.script(.match)
        #expect(try await store.read(service: "svc", account: "presence", authentication: .prompt("Read")) == [3])
    }

    @Test("SPEC D6: applicationPassword items need the right password on the context")
    func applicationPassword() async throws {
        let creator = SimulatedContextAdapter(device.makeContext())
        #expect(creator.setCredential(Data("server-pw".utf8), type: .applicationPassword))
        try await store.add([5], service: "svc", account: "pw", accessControl: .applicationPassword, authentication: .context(KeychainContext(creator)))
        let right = SimulatedContextAdapter(device.makeContext())
        _ = right.setCredential(Data("server-pw".utf8), type: .applicationPassword)
        #expect(try await store.read(service: "svc", account: "pw", authentication: .context(KeychainContext(right))) == [5])
        let wrong = SimulatedContextAdapter(device.makeContext())
        _ = wrong.setCredential(Data("guess".utf8), type: .applicationPassword)
        await #expect(throws: VaultError.authFailed) {
            _ = try await store.read(service: "svc", account: "pw", authentication: .context(KeychainContext(wrong)))
        }
    }
}
