#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What limits a protected key's use beyond its access control (SPEC D8):
/// a lifetime and a confirmation for each use, as `ssh-add -t` and
/// `ssh-add -c` ask of an agent, and the destinations of `ssh-add -h`;
/// with them, stored the same way, an RSA key's mark for SHA-1 signatures.
///
/// They are the key's, not a process's: stored with the key, sealed and
/// bound to its row, and enforced by ``Vault`` at every use in every
/// process (``VaultKeys/sign(_:withKey:service:encoding:operationPrompt:context:)``,
/// ``VaultKeys/decrypt(_:withKey:service:operationPrompt:context:)``,
/// ``VaultKeys/sharedSecret(withKey:service:peer:operationPrompt:context:)``).
/// A key past its expiry is deleted at its next use and listed nowhere.
public struct KeyConstraints: Sendable, Hashable {
    /// When the key stops existing (wall-clock time); `nil` for never.
    public var expires: Date?
    /// Whether every use needs the owner's explicit confirmation (a device
    /// owner prompt, never satisfied by a reuse window or an authorisation
    /// made ahead of time).
    public var confirmEachUse: Bool
    /// Whether an SSH agent must refuse the key to a forwarded connection
    /// (`ssh -A`: a remote host asking through the forwarded agent), and
    /// leave it out of such a connection's listing. Enforced by
    /// `SesameSSH`'s agent, the only place a forwarding can be seen; a use
    /// through the vault itself is never forwarded.
    public var refusesForwarding: Bool
    /// Where an SSH agent may use the key (`ssh-add -h`); empty
    /// for anywhere. Enforced by `SesameSSH`'s agent against the hosts its
    /// connections are bound to, as OpenSSH's agent does: such a key signs
    /// only SSH logins on a bound connection whose every hop an entry allows.
    public var destinations: [KeyDestination]
    /// Whether the key, an RSA key, may make PKCS#1 v1.5 SHA-1 signatures
    /// (SSH's `ssh-rsa`, ``RSASignatureScheme/pkcs1SHA1``) when asked for
    /// them. Off by default: SHA-1 has practical chosen-prefix
    /// collisions, so whoever chooses what such a key signs may get a
    /// signature that also stands for other data; only a key kept for a
    /// server that knows nothing newer is marked.
    /// Enforced by ``Vault`` at every signature, in every process; only an
    /// RSA key may carry it (``Vault`` refuses it on another key). It is the
    /// key's own, set when the key is created or imported: adding the key
    /// again neither sets nor clears it (``tightened(by:)``).
    public var allowsSHA1Signatures: Bool

    /// No constraint: the key lives until deleted and its access control alone decides.
    public static let none = KeyConstraints()

    /// - Parameters:
    ///   - expires: When the key stops existing; `nil` for never.
    ///   - confirmEachUse: Whether every use asks the owner.
    ///   - refusesForwarding: Whether forwarded agent connections may not use it.
    ///   - destinations: Where an SSH agent may use it; empty for anywhere.
    ///   - allowsSHA1Signatures: Whether an RSA key may sign with SHA-1 (`ssh-rsa`) when asked to.
    public init(expires: Date? = nil, confirmEachUse: Bool = false, refusesForwarding: Bool = false, destinations: [KeyDestination] = [],
                allowsSHA1Signatures: Bool = false) {
        self.expires = expires
        self.confirmEachUse = confirmEachUse
        self.refusesForwarding = refusesForwarding
        self.destinations = destinations
        self.allowsSHA1Signatures = allowsSHA1Signatures
    }

    /// Whether there is nothing to store: no constraint and no SHA-1 mark.
    public var isEmpty: Bool { expires == nil && !confirmEachUse && !refusesForwarding && destinations.isEmpty && !allowsSHA1Signatures }

    /// Whether the lifetime has ended at `date`.
    ///
    /// - Parameter date: The time to judge by.
    /// - Returns: `true` from the expiry on; `false` without a lifetime.
    public func hasExpired(at date: Date) -> Bool { expires.map { date >= $0 } ?? false }

    /// The stricter of both: confirmation when either asks for it, the
    /// earlier expiry. A destination list, once set, is only narrowed: to
    /// the entries both lists share, or kept as it is when they share none
    /// (a list cannot say "nowhere", and widening it is what must not happen). Constraints are only ever tightened, never loosened,
    /// by whoever can reach the key (an agent's socket, say). The SHA-1
    /// mark stays this key's: another party cannot set it (that would
    /// loosen the key), and `ssh-add` has no way to say it, so re-adding a
    /// key through an agent does not clear it either.
    ///
    /// - Parameter other: Constraints to add.
    /// - Returns: Both together.
    public func tightened(by other: KeyConstraints) -> KeyConstraints {
        let expiry: Date? = switch (expires, other.expires) {
        case let (mine?, theirs?): min(mine, theirs)
        case let (mine, theirs): mine ?? theirs
        }
        let shared = destinations.filter { other.destinations.contains($0) }
        let narrowed = destinations.isEmpty ? other.destinations : other.destinations.isEmpty || shared.isEmpty ? destinations : shared
        return KeyConstraints(expires: expiry, confirmEachUse: confirmEachUse || other.confirmEachUse,
                              refusesForwarding: refusesForwarding || other.refusesForwarding, destinations: narrowed,
                              allowsSHA1Signatures: allowsSHA1Signatures)
    }
}
