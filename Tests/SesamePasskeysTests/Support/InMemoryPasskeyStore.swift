import Crypto
import Foundation
import Sesame
import SesamePasskeys

/// A ``PasskeyStore`` in memory for the CTAP2 tests: real P-256 and Ed25519
/// keys from swift-crypto, ids "sealed" trivially (a prefix and a number),
/// and a count of the owner's verifications, which can be made to fail.
actor InMemoryPasskeyStore: PasskeyStore {
    private enum Key {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    private struct Entry {
        var credential: PasskeyCredential
        let key: Key
        let secrets: [String: [UInt8]]
    }

    private var entries: [Entry] = []
    private var verifiedContexts: Set<ObjectIdentifier> = []
    /// Every reason the owner was asked with, in order (a key used under an
    /// unverified context counts too: the vault would ask).
    private(set) var prompts: [String] = []
    /// Thrown by the next verifications when set.
    var failure: (any Error)?

    /// When set, a verification waits until its task is cancelled (a
    /// person who never answers; CTAPHID CANCEL ends it).
    var waitsForCancel = false

    /// When set, every lookup is followed at once by another process
    /// taking the credential's next counter value, as a second
    /// `passkey serve` on the same vault would.
    var anotherProcessSignsAfterLookup = false

    func setFailure(_ error: (any Error)?) { failure = error }
    func setAnotherProcessSignsAfterLookup() { anotherProcessSignsAfterLookup = true }
    func setWaitsForCancel() { waitsForCancel = true }

    /// The stored credentials, newest first.
    var all: [PasskeyCredential] { entries.reversed().map(\.credential) }

    func verifyOwner(for relyingPartyID: String, reason: String, context: AuthenticationContext) async throws {
        prompts.append(reason)
        if waitsForCancel {
            while true { try await Task.sleep(nanoseconds: 1_000_000_000) }
        }
        if let failure { throw failure }
        verifiedContexts.insert(ObjectIdentifier(context))
    }

    private func use(_ context: AuthenticationContext, reason: String) async throws {
        if !verifiedContexts.contains(ObjectIdentifier(context)) {
            try await verifyOwner(for: "", reason: reason, context: context)
        }
    }

    func makeCredential(_ creation: PasskeyCreation, secrets: [String: [UInt8]], reason: String, context: AuthenticationContext) async throws
        -> PasskeyCredential
    {
        try await use(context, reason: reason)
        let key: Key, publicKey: PublicKey
        switch creation.algorithm {
        case .es256:
            let privateKey = P256.Signing.PrivateKey()
            key = .p256(privateKey)
            publicKey = try PublicKey(algorithm: .p256, rawRepresentation: privateKey.publicKey.x963Representation)
        case .edDSA:
            let privateKey = Curve25519.Signing.PrivateKey()
            key = .ed25519(privateKey)
            publicKey = try PublicKey(algorithm: .ed25519, rawRepresentation: privateKey.publicKey.rawRepresentation)
        }
        let id = Array("sealed-".utf8) + [UInt8(entries.count)]
        let credential = PasskeyCredential(id: id, creation: creation, publicKey: publicKey, created: Date(), signatureCount: 0)
        entries.append(Entry(credential: credential, key: key, secrets: secrets))
        return credential
    }

    func credentials(relyingPartyID: String, ids: [[UInt8]]) async throws -> [PasskeyCredential] {
        let found = ids.compactMap { id in
            entries.first { $0.credential.id == id && $0.credential.creation.relyingPartyID == relyingPartyID }?.credential
        }
        if anotherProcessSignsAfterLookup {
            for credential in found { _ = try await nextSignatureCount(of: credential) }
        }
        return found
    }

    func discoverableCredentials(relyingPartyID: String?) async throws -> [PasskeyCredential] {
        all.filter { $0.creation.isDiscoverable && (relyingPartyID == nil || $0.creation.relyingPartyID == relyingPartyID) }
    }

    func nextSignatureCount(of credential: PasskeyCredential) async throws -> UInt32 {
        guard let index = entries.firstIndex(where: { $0.credential.id == credential.id }) else {
            throw VaultError(.itemNotFound, "no such passkey")
        }
        let old = entries[index].credential
        let count = old.signatureCount + 1
        entries[index].credential = PasskeyCredential(
            id: old.id, creation: old.creation, publicKey: old.publicKey, created: old.created, signatureCount: count)
        return count
    }

    func sign(_ data: [UInt8], with credential: PasskeyCredential, reason: String, context: AuthenticationContext) async throws -> [UInt8] {
        try await use(context, reason: reason)
        guard let entry = entries.first(where: { $0.credential.id == credential.id }) else {
            throw VaultError(.itemNotFound, "no such passkey")
        }
        switch entry.key {
        case .p256(let key): return Array(try key.signature(for: data).derRepresentation)
        case .ed25519(let key): return Array(try key.signature(for: data))
        }
    }

    func secret(of credential: PasskeyCredential, for extensionIdentifier: String, reason: String, context: AuthenticationContext)
        async throws -> [UInt8]
    {
        try await use(context, reason: reason)
        guard let secret = entries.first(where: { $0.credential.id == credential.id })?.secrets[extensionIdentifier] else {
            throw VaultError(.itemNotFound, "no such passkey or secret")
        }
        return secret
    }

    func delete(_ credential: PasskeyCredential) async throws {
        entries.removeAll { $0.credential.id == credential.id }
    }
}
