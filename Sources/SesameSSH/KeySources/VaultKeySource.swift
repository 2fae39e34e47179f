#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The vault's protected keys as an ``SSHKeySource`` (SPEC D7): SSH keys
/// whose private part never leaves the vault and whose every signature runs
/// the key's access control — a finger, or the login password where the
/// access control allows it.
///
/// - Keys: every signing key of ``service`` (Ed25519, ECDSA P-256/384/521,
///   RSA 2048/3072/4096), its label (or name) as the comment. Listing never
///   prompts; keys past their lifetime are deleted as they are listed.
/// - `ssh-add FILE` imports the key into the vault with
///   ``addedKeyAccessControl``. Its constraints are stored with it (SPEC D8,
///   `KeyConstraints`) and enforced by the vault at every use, in the
///   agent, after its restart and in `sesame key sign` alike: at the end of
///   its lifetime (`-t`) the key is deleted from the vault, and confirm
///   (`-c`) asks the owner (device owner) before each use even when the
///   key's access control would not. Adding a key the vault already has
///   only tightens its stored constraints, never lifts one. A constraint the
///   vault cannot keep (an extension such as a FIDO provider) refuses the
///   key, which is then never written.
public struct VaultKeySource: SSHKeySource {
    /// The open vault the keys are in.
    public let vault: Vault
    /// The vault service whose keys are SSH keys.
    public let service: String
    /// The access control of keys added with `ssh-add`.
    public let addedKeyAccessControl: AccessControl

    /// - Parameters:
    ///   - vault: An open vault.
    ///   - service: The vault service whose keys are served; `ssh` by default.
    ///   - addedKeyAccessControl: The access control `ssh-add` imports keys
    ///     with; user presence by default.
    public init(vault: Vault, service: String = "ssh", addedKeyAccessControl: AccessControl = .userPresence) {
        self.vault = vault
        self.service = service
        self.addedKeyAccessControl = addedKeyAccessControl
    }

    public func keys() async throws -> [SSHSourceKey] {
        // The vault leaves expired keys out anyway; deleting them here keeps the file clean.
        try? await vault.keys.deleteExpired(service: service)
        return try await vault.keys.list(service: service).filter { $0.algorithm.purpose == .signing }.map(SSHSourceKey.init(vaultKey:))
    }

    /// The row named `id`, read now: its access control, constraints and
    /// private key are read afresh for every signature.
    public func key(id: String) async throws -> SSHSourceKey? {
        // A row that fails here (gone, expired, tampered) is the listing's to report.
        guard let key = try? await vault.keys.key(service: service, name: id), key.algorithm.purpose == .signing else { return nil }
        return SSHSourceKey(vaultKey: key)
    }

    /// The key's stored constraints (confirmation, lifetime) are enforced by
    /// the vault as it signs (SPEC D8).
    public func sign(
        _ data: [UInt8], with key: SSHSourceKey, rsaScheme: RSASignatureScheme?, reason: String, context: AuthenticationContext
    ) async throws -> [UInt8] {
        if let rsaScheme {
            let signature = try await vault.keys.sign(data, withKey: key.id, service: service, rsaScheme: rsaScheme, operationPrompt: reason, context: context)
            return try SSHSignature.encode(rsaScheme: rsaScheme, signature: signature)
        }
        let raw = try await vault.keys.sign(data, withKey: key.id, service: service, encoding: .raw, operationPrompt: reason, context: context)
        return try SSHSignature.encode(algorithm: key.publicKey.algorithm, rawSignature: raw)
    }

    public func add(_ key: SSHAgentKey, comment: String, constraints: [SSHAgentConstraint], context: AuthenticationContext) async throws {
        var confirm = false
        var lifetime: UInt32?
        var destinations: [KeyDestination] = []
        for constraint in constraints {
            switch constraint {
            case .confirm: confirm = true
            case .lifetime(let seconds): lifetime = seconds
            case .destinations(let list): destinations = list
            // Unknown constraints (a FIDO provider, say) cannot be
            // honoured, so the key is refused rather than served unrestricted.
            case .extension(let name):
                throw SSHAgent.Refusal(reason: "ssh-add: the constraint \(name) cannot be kept by this agent, so the key is not added")
            }
        }
        let constraints = KeyConstraints(
            expires: lifetime.map { vault.authenticators.clock.now().addingTimeInterval(TimeInterval($0)) }, confirmEachUse: confirm,
            destinations: destinations)
        // An expired key still in the file would collide with its own re-adding.
        try? await vault.keys.deleteExpired(service: service)
        let existing = try await vault.keys.list(service: service)
        if let same = existing.first(where: { $0.publicKey == key.publicKey }) {
            // A stored destination list is only ever narrowed; one that shares
            // nothing with it would be dropped silently, so it is refused instead.
            if !same.constraints.destinations.isEmpty, !destinations.isEmpty,
               !destinations.contains(where: { same.constraints.destinations.contains($0) }) {
                throw SSHAgent.Refusal(reason: "ssh-add: \(same.label ?? same.name) is already restricted to other destinations; "
                                       + "delete it (sesame key rm) to restrict it anew")
            }
            if !constraints.isEmpty {
                _ = try await vault.keys.constrain(service: service, name: same.name, with: constraints)
            }
        } else {
            var name = Self.name(for: comment, key: key.publicKey)
            var suffix = 2
            while existing.contains(where: { $0.name == name }) {
                name = Self.name(for: comment, key: key.publicKey) + "-\(suffix)"
                suffix += 1
            }
            _ = try await vault.keys.importRaw(
                key.privateKey, algorithm: key.algorithm, service: service, name: name,
                label: OutsideText.label(fromComment: comment), accessControl: addedKeyAccessControl,
                constraints: constraints, context: context)
        }
    }

    /// A vault name for an added key: its comment's safe characters, else
    /// its fingerprint's.
    static func name(for comment: String, key: PublicKey) -> String {
        let safe = String(comment.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.@".unicodeScalars.contains($0)) }.prefix(64))
        return safe.isEmpty ? "key-" + String(key.fingerprint.dropFirst(7).prefix(12).map { $0 == "/" || $0 == "+" ? "_" : $0 }) : safe
    }
}

extension SSHSourceKey {
    /// A vault key as the agent sees it: its name is its identifier.
    init(vaultKey key: VaultKey) {
        self.init(id: key.name, label: key.label, publicKey: key.publicKey, constraints: key.constraints)
    }
}
