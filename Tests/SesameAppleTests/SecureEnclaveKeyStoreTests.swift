import Crypto
import Foundation
import Sesame
@testable import SesameApple
import SesameTesting
import Testing

@Suite("SPEC D7 over SecureEnclaveKeyStore and the simulated Secure Enclave")
struct SecureEnclaveKeyStoreTests {
    let device = SimulatedLocalAuthentication()
    let enclave: SimulatedSecureEnclave
    let store: SecureEnclaveKeyStore

    init() {
        enclave = SimulatedSecureEnclave(device: device)
        store = device.enclaveStore(enclave)
    }

    /// A context authorised ahead of time for `operation` (SPEC A12).
    private func authorised(_ accessControl: AccessControl, for operation: AccessControlOperation) async -> KeychainContext? {
        let adapter = SimulatedContextAdapter(device.makeContext())
        device.script(.match)
        let result = await LAReplyBridge.run(adapter) { context, reply in
            context.evaluateAccessControl(
                KeychainAccessControl(accessControl, accessibility: .whenUnlockedThisDeviceOnly),
                operation: operation, localizedReason: "Use key", reply: reply
            )
        }
        return (try? result.get()) == nil ? nil : KeychainContext(adapter)
    }

    @Test("SPEC D7: a P-256 signature verifies with PublicKey.isValidSignature, DER and raw, and only for its message")
    func signs() async throws {
        let created = try await store.createKey(tag: "signer", algorithm: .p256, accessControl: .biometryAny)
        #expect(created.algorithm == .p256 && created.rawRepresentation.count == 65)
        #expect(try await store.publicKey(tag: "signer", algorithm: .p256) == created)
        let message = Array("pay 10 to bob".utf8)
        device.script(.match, .match)
        let der = try await store.sign(message, tag: "signer", encoding: .der, authentication: .prompt("Sign"))
        let raw = try await store.sign(message, tag: "signer", encoding: .raw, authentication: .prompt("Sign"))
        #expect(raw.count == 64 && der.first == 0x30)
        #expect(created.isValidSignature(der, for: message, encoding: .der))
        #expect(created.isValidSignature(raw, for: message, encoding: .raw))
        #expect(!created.isValidSignature(der, for: Array("pay 99 to eve".utf8), encoding: .der))
        #expect(!created.isValidSignature(raw, for: message, encoding: .der))
        #expect(device.evaluations == 2)
    }

    @Test("SPEC D7: what PublicKey.encrypt seals, the enclave key decrypts; a changed byte is authFailed")
    func decrypts() async throws {
        let created = try await store.createKey(tag: "box", algorithm: .p256Agreement)
        let plaintext = Array("the launch code".utf8)
        var sealed = try created.encrypt(plaintext)
        let opened = try await store.decrypt(sealed, tag: "box", authentication: .prompt("Open"))
        #expect(opened.withUnsafeBytes { Array($0) } == plaintext)
        sealed[sealed.count - 1] ^= 1
        await #expect(throws: VaultError.authFailed) { _ = try await store.decrypt(sealed, tag: "box", authentication: .prompt("Open")) }
        let other = try PublicKey(algorithm: .p256Agreement, rawRepresentation: P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        await #expect(throws: VaultError.authFailed) {
            _ = try await store.decrypt(other.encrypt(plaintext), tag: "box", authentication: .prompt("Open"))
        }
    }

    @Test("SPEC D7: the shared secret equals the one swift-crypto computes on the peer's side")
    func agrees() async throws {
        let created = try await store.createKey(tag: "agree", algorithm: .p256Agreement, accessControl: .userPresence)
        let peer = P256.KeyAgreement.PrivateKey()
        let peerPublic = try PublicKey(algorithm: .p256Agreement, rawRepresentation: peer.publicKey.x963Representation)
        device.script(.match)
        let secret = try await store.sharedSecret(tag: "agree", peer: peerPublic, authentication: .prompt("Agree"))
        let expected = try peer.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: created.rawRepresentation))
        #expect(secret.count == 32)
        #expect(secret.withUnsafeBytes { Array($0) } == expected.withUnsafeBytes { Array($0) })
    }

    @Test("SPEC D7/A12: a context authorised for useKeySign signs without a second prompt")
    func preAuthorised() async throws {
        let created = try await store.createKey(tag: "k", algorithm: .p256, accessControl: .biometryCurrentSet)
        let context = try #require(await authorised(.biometryCurrentSet, for: .useKeySign))
        let prompts = device.evaluations
        #expect(prompts == 1)
        let message = Array("once".utf8)
        let signature = try await store.sign(message, tag: "k", authentication: .context(context))
        #expect(created.isValidSignature(signature, for: message))
        #expect(device.evaluations == prompts)
        // A context that never authenticated prompts on it instead.
        let fresh = KeychainContext(SimulatedContextAdapter(device.makeContext()))
        device.script(.match)
        _ = try await store.sign(message, tag: "k", authentication: .context(fresh))
        #expect(device.evaluations == prompts + 1)
    }

    @Test("SPEC D7: an authorisation for one operation never serves another")
    func authorisationIsPerOperation() async throws {
        let created = try await store.createKey(tag: "box", algorithm: .p256Agreement, accessControl: .biometryAny)
        let context = try #require(await authorised(.biometryAny, for: .useKeyDecrypt))
        let prompts = device.evaluations
        let peer = try PublicKey(algorithm: .p256Agreement, rawRepresentation: P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        // Nothing scripted: a second prompt ends with systemCancel.
        await #expect(throws: VaultError.userCanceled) {
            _ = try await store.sharedSecret(tag: "box", peer: peer, authentication: .context(context))
        }
        #expect(device.evaluations == prompts + 1)
        let opened = try await store.decrypt(created.encrypt([42]), tag: "box", authentication: .context(context))
        #expect(opened.withUnsafeBytes { Array($0) } == [42])
        #expect(device.evaluations == prompts + 1)
    }

    @Test("SPEC D7: Ed25519, X25519 and migratable classes are notAvailable before any Security call")
    func onlyP256() async throws {
        for algorithm in [KeyAlgorithm.ed25519, .x25519] {
            await #expect(throws: VaultError.notAvailable) { _ = try await store.createKey(tag: "k", algorithm: algorithm) }
            await #expect(throws: VaultError.notAvailable) { _ = try await store.publicKey(tag: "k", algorithm: algorithm) }
        }
        let x25519 = try PublicKey(algorithm: .x25519, rawRepresentation: Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation)
        await #expect(throws: VaultError.notAvailable) { _ = try await store.sharedSecret(tag: "k", peer: x25519, authentication: .skipUI) }
        await #expect(throws: VaultError.notAvailable) {
            _ = try await store.createKey(tag: "k", algorithm: .p256, accessibility: .whenUnlocked)
        }
        #expect(enclave.calls == 0 && enclave.count == 0)
        _ = try await store.createKey(tag: "k", algorithm: .p256, accessibility: .afterFirstUnlockThisDeviceOnly)
        #expect(enclave.calls == 1 && enclave.count == 1)
    }

    @Test("SPEC D7: a key is never used for the other purpose (invalidArgument, no prompt)")
    func purpose() async throws {
        _ = try await store.createKey(tag: "signer", algorithm: .p256, accessControl: .userPresence)
        let agreement = try await store.createKey(tag: "box", algorithm: .p256Agreement, accessControl: .userPresence)
        await #expect(throws: VaultError.invalidArgument) { _ = try await store.sign([1], tag: "box", authentication: .prompt("Sign")) }
        await #expect(throws: VaultError.invalidArgument) {
            _ = try await store.decrypt(agreement.encrypt([1]), tag: "signer", authentication: .prompt("Open"))
        }
        await #expect(throws: VaultError.invalidArgument) {
            _ = try await store.sharedSecret(tag: "signer", peer: agreement, authentication: .prompt("Agree"))
        }
        await #expect(throws: VaultError.invalidArgument) { _ = try await store.publicKey(tag: "signer", algorithm: .p256Agreement) }
        let signingPeer = try PublicKey(algorithm: .p256, rawRepresentation: agreement.rawRepresentation)
        await #expect(throws: VaultError.invalidArgument) {
            _ = try await store.sharedSecret(tag: "box", peer: signingPeer, authentication: .prompt("Agree"))
        }
        #expect(device.evaluations == 0)
    }

    @Test("SPEC D5/D7: after an enrolment change a biometryCurrentSet key is gone (itemNotFound); a biometryAny key survives")
    func enrolmentChange() async throws {
        _ = try await store.createKey(tag: "current", algorithm: .p256, accessControl: .biometryCurrentSet)
        let any = try await store.createKey(tag: "any", algorithm: .p256, accessControl: .biometryAny)
        device.script(.match)
        _ = try await store.sign([1], tag: "current", authentication: .prompt("Sign"))
        device.setEnrolled(["right-index-finger", "intruder-thumb"])
        device.script(.match)
        await #expect(throws: VaultError.itemNotFound) { _ = try await store.sign([1], tag: "current", authentication: .prompt("Sign")) }
        await #expect(throws: VaultError.itemNotFound) { _ = try await store.publicKey(tag: "current", algorithm: .p256) }
        let signature = try await store.sign([2], tag: "any", authentication: .prompt("Sign"))
        #expect(any.isValidSignature(signature, for: [2]))
    }

    @Test("SPEC D4/D7: cancel is userCanceled, no match authFailed, no UI interactionNotAllowed")
    func failures() async throws {
        _ = try await store.createKey(tag: "k", algorithm: .p256, accessControl: .biometryAny)
        device.script(.userCancel)
        await #expect(throws: VaultError.userCanceled) { _ = try await store.sign([1], tag: "k", authentication: .prompt("Sign")) }
        device.script(.noMatch)
        await #expect(throws: VaultError.authFailed) { _ = try await store.sign([1], tag: "k", authentication: .prompt("Sign")) }
        let prompts = device.evaluations
        await #expect(throws: VaultError.interactionNotAllowed) { _ = try await store.sign([1], tag: "k", authentication: .skipUI) }
        #expect(device.evaluations == prompts)
    }

    @Test("SPEC D7: reading the public key never prompts, whatever the access control")
    func publicKeyNeverPrompts() async throws {
        let created = try await store.createKey(tag: "k", algorithm: .p256, accessControl: .userPresence)
        for _ in 0..<3 {
            #expect(try await store.publicKey(tag: "k", algorithm: .p256) == created)
        }
        #expect(device.evaluations == 0)
    }

    @Test("SPEC D7: tags are unique; delete needs no prompt and leaves nothing")
    func lifecycle() async throws {
        _ = try await store.createKey(tag: "k", algorithm: .p256, accessControl: .biometryAny)
        await #expect(throws: VaultError.duplicateItem) { _ = try await store.createKey(tag: "k", algorithm: .p256) }
        try await store.deleteKey(tag: "k")
        #expect(enclave.count == 0 && device.evaluations == 0)
        await #expect(throws: VaultError.itemNotFound) { _ = try await store.publicKey(tag: "k", algorithm: .p256) }
        await #expect(throws: VaultError.itemNotFound) { try await store.deleteKey(tag: "k") }
    }

    @Test("SPEC D6/D7: an applicationPassword key needs the password at creation and use")
    func applicationPassword() async throws {
        await #expect(throws: VaultError.authFailed) {
            _ = try await store.createKey(tag: "pw", algorithm: .p256, accessControl: .applicationPassword)
        }
        let creator = SimulatedContextAdapter(device.makeContext())
        _ = creator.setCredential(Data("pw".utf8), type: .applicationPassword)
        let created = try await store.createKey(
            tag: "pw", algorithm: .p256, accessControl: .applicationPassword, authentication: .context(KeychainContext(creator))
        )
        let wrong = SimulatedContextAdapter(device.makeContext())
        _ = wrong.setCredential(Data("guess".utf8), type: .applicationPassword)
        await #expect(throws: VaultError.authFailed) { _ = try await store.sign([1], tag: "pw", authentication: .context(KeychainContext(wrong))) }
        let right = SimulatedContextAdapter(device.makeContext())
        _ = right.setCredential(Data("pw".utf8), type: .applicationPassword)
        #expect(created.isValidSignature(try await store.sign([1], tag: "pw", authentication: .context(KeychainContext(right))), for: [1]))
    }
}
