#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Sesame

/// Passkeys kept in a vault (SPEC P1, P4): each credential's private key is
/// one of the vault's protected keys (SPEC D7), made inside it under
/// ``accessControl`` and never readable; an extension's secret (hmac-secret's
/// CredRandoms) is an item under the same access control; its facts
/// (relying party, user, counter, the extensions' state) are an item that
/// reading never prompts for.
///
/// In the vault, a credential `N` (16 random bytes, in hex) is the key `N`
/// of ``service``, the item `N` of ``service`` (its record) and, for each
/// extension secret, the item `N` of `passkeys.` and the extension's
/// identifier (`passkeys.hmac-secret`). All are "this device only": `export` leaves
/// them out, since a key that could be exported would not be a key that
/// never leaves the vault (SPEC D7).
///
/// A credential id is a key handle (`Vault.keyHandle(service:name:binding:)`)
/// bound to the relying party id's SHA-256: only this vault can tell which
/// key an id names, and an id given for another relying party names none.
public struct VaultPasskeyStore: PasskeyStore {
    /// The vault service of passkeys' keys and records.
    public static let service = "passkeys"

    /// The vault service of the secrets that the extension `identifier`
    /// keeps: ``service``, a dot, the identifier. Frozen: vaults keep them.
    static func secretService(for identifier: String) -> String {
        service + "." + identifier
    }

    /// The open vault.
    public let vault: Vault
    /// The access control of new passkeys: the user verification a
    /// relying party is told happened.
    public let accessControl: AccessControl

    /// - Parameters:
    ///   - vault: An open vault.
    ///   - accessControl: The access control of new passkeys: a finger
    ///     (`.biometryAny`, the default), or `.devicePasscode` for the login
    ///     password where there is no reader or the owner prefers it.
    public init(vault: Vault, accessControl: AccessControl = .biometryAny) {
        self.vault = vault
        self.accessControl = accessControl
    }

    public func verifyOwner(for relyingPartyID: String, reason: String, context: AuthenticationContext) async throws {
        try await context.evaluateAccessControl(accessControl, operations: [.createKey, .createItem, .useKeySign, .useItem], localizedReason: reason)
    }

    public func makeCredential(_ creation: PasskeyCreation, secrets: [String: [UInt8]], reason: String, context: AuthenticationContext)
        async throws -> PasskeyCredential
    {
        // delete(_:) finds a secret by its extension's state.
        guard secrets.keys.allSatisfy({ creation.extensions[$0] != nil }) else {
            throw VaultError(.invalidArgument, "A passkey's extension secret needs the extension's state")
        }
        let name = Self.randomName()
        let id = try vault.keys.handle(service: Self.service, name: name, binding: Self.binding(creation.relyingPartyID))
        let key = try await vault.keys.create(
            service: Self.service, name: name, algorithm: creation.algorithm.keyAlgorithm, label: creation.relyingPartyID,
            accessibility: .whenUnlockedThisDeviceOnly, accessControl: accessControl, context: context)
        do {
            for (identifier, secret) in secrets.sorted(by: { $0.key < $1.key }) {
                try await vault.items.add(SecretBytes(secret), service: Self.secretService(for: identifier), account: name,
                                    accessibility: .whenUnlockedThisDeviceOnly, accessControl: accessControl, context: context)
            }
            let record = PasskeyRecord(id: id, creation: creation, created: key.created, signatureCount: 0)
            try await vault.items.add(SecretBytes(record.encoded), service: Self.service, account: name, label: creation.relyingPartyID,
                                accessibility: .whenUnlockedThisDeviceOnly)
            return PasskeyCredential(id: id, creation: creation, publicKey: key.publicKey, created: record.created, signatureCount: 0)
        } catch {
            // Never leave a key that no record names.
            for identifier in secrets.keys { try? await vault.items.delete(service: Self.secretService(for: identifier), account: name) }
            try? await vault.keys.delete(service: Self.service, name: name)
            throw error
        }
    }

    public func credentials(relyingPartyID: String, ids: [[UInt8]]) async throws -> [PasskeyCredential] {
        let binding = Self.binding(relyingPartyID)
        var found: [PasskeyCredential] = []
        for id in ids {
            guard let name = vault.keys.name(fromHandle: id, service: Self.service, binding: binding),
                  let credential = try await credential(named: name), credential.id == id else { continue }
            found.append(credential)
        }
        return found
    }

    public func discoverableCredentials(relyingPartyID: String?) async throws -> [PasskeyCredential] {
        var found: [PasskeyCredential] = []
        for item in try await vault.items.list(service: Self.service) {
            guard let credential = try await credential(named: item.account), credential.creation.isDiscoverable,
                  relyingPartyID == nil || credential.creation.relyingPartyID == relyingPartyID else { continue }
            found.append(credential)
        }
        return found.sorted { $0.created > $1.created }
    }

    public func nextSignatureCount(of credential: PasskeyCredential) async throws -> UInt32 {
        try await advanceSignatureCount(Self.name(of: credential, in: vault))
    }

    public func sign(_ data: [UInt8], with credential: PasskeyCredential, reason: String, context: AuthenticationContext) async throws -> [UInt8] {
        let name = try Self.name(of: credential, in: vault)
        let encoding: SignatureEncoding = credential.creation.algorithm == .es256 ? .der : .raw
        return try await vault.keys.sign(data, withKey: name, service: Self.service, encoding: encoding, operationPrompt: reason, context: context)
    }

    public func secret(of credential: PasskeyCredential, for extensionIdentifier: String, reason: String, context: AuthenticationContext)
        async throws -> [UInt8]
    {
        let name = try Self.name(of: credential, in: vault)
        let secret = try await vault.items.read(service: Self.secretService(for: extensionIdentifier), account: name, operationPrompt: reason,
                                          context: context)
        return secret.withUnsafeBytes { Array($0) }
    }

    public func delete(_ credential: PasskeyCredential) async throws {
        let name = try Self.name(of: credential, in: vault)
        try await vault.keys.delete(service: Self.service, name: name)
        // Only an extension with state can have a secret; one without a secret has none to delete.
        for identifier in credential.creation.extensions.keys {
            try? await vault.items.delete(service: Self.secretService(for: identifier), account: name)
        }
        try await vault.items.delete(service: Self.service, account: name)
    }

    /// Every stored passkey, discoverable or not, newest first: what
    /// `sesame passkey ls` prints. Never prompts.
    public func allCredentials() async throws -> [PasskeyCredential] {
        var found: [PasskeyCredential] = []
        for item in try await vault.items.list(service: Self.service) {
            if let credential = try await credential(named: item.account) { found.append(credential) }
        }
        return found.sorted { $0.created > $1.created }
    }

    // MARK: Internals

    /// The credential named `name`, or `nil` when its record or key is gone
    /// (a half-deleted credential is no credential).
    private func credential(named name: String) async throws -> PasskeyCredential? {
        let value: SecretBytes
        do {
            value = try await vault.items.read(service: Self.service, account: name, operationPrompt: "Read a passkey's record")
        } catch {
            // (A `catch where` on this typed error crashes Swift 6.3's SILGen.)
            guard error.status == .itemNotFound else { throw error }
            return nil
        }
        guard let record = value.withUnsafeBytes({ PasskeyRecord(decoding: Array($0)) }) else {
            throw VaultError(.tampered, "The record of passkey \(name) is not one this Sesame can read")
        }
        guard let key = try? await vault.keys.key(service: Self.service, name: name) else { return nil }
        return PasskeyCredential(id: record.id, creation: record.creation, publicKey: key.publicKey, created: record.created,
                                 signatureCount: record.signatureCount)
    }

    /// Advances the credential's counter by one and returns it (SPEC P4: it
    /// never goes back, and no two signatures share a value). Another process
    /// taking a value at the same moment makes the compare-and-swap fail; it
    /// is read again, never overwritten.
    private func advanceSignatureCount(_ name: String) async throws -> UInt32 {
        for _ in 0..<64 {
            if let count = try await advanceSignatureCountOnce(name) { return count }
            // Another process won this round; a short random pause keeps the losers from meeting again.
            try await Task.sleep(for: .microseconds(Int.random(in: 100...2_000)))
        }
        throw VaultError(.ioError, "The counter of passkey \(name) kept changing under other processes; nothing was signed")
    }

    /// One compare-and-swap of the counter; `nil` when another process
    /// changed the record meanwhile.
    private func advanceSignatureCountOnce(_ name: String) async throws -> UInt32? {
        do {
            return try await vault.items.updateValue(service: Self.service, account: name, operationPrompt: "Count a passkey's signature",
                                               context: nil, consequence: "the counter was not advanced") { value throws(VaultError) in
                guard var record = value.withUnsafeBytes({ PasskeyRecord(decoding: Array($0)) }) else {
                    throw VaultError(.tampered, "The record of passkey \(name) is not one this Sesame can read")
                }
                guard record.signatureCount < UInt32.max else {
                    throw VaultError(.invalidArgument, "Passkey \(name) has signed \(UInt32.max) times; its counter cannot go further")
                }
                record.signatureCount += 1
                return (SecretBytes(record.encoded), record.signatureCount)
            }
        } catch {
            guard error.status == .itemNotFound, try await vault.items.contains(service: Self.service, account: name) else { throw error }
            return nil
        }
    }

    private static func name(of credential: PasskeyCredential, in vault: Vault) throws(VaultError) -> String {
        guard let name = vault.keys.name(fromHandle: credential.id, service: service, binding: binding(credential.creation.relyingPartyID)) else {
            throw VaultError(.itemNotFound, "This vault did not make that passkey")
        }
        return name
    }

    /// What a credential id is bound to: the relying party id's SHA-256, the
    /// `rpIdHash` of CTAP's authenticator data.
    static func binding(_ relyingPartyID: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(relyingPartyID.utf8)))
    }

    private static func randomName() -> String {
        SymmetricKey(size: .init(bitCount: 128)).withUnsafeBytes { bytes in
            bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
    }
}
