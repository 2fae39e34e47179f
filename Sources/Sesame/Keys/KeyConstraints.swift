#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What limits a protected key's use beyond its access control (SPEC D8):
/// a lifetime and a confirmation for each use, as `ssh-add -t` and
/// `ssh-add -c` ask of an agent.
///
/// They are the key's, not a process's: stored with the key, sealed and
/// bound to its row, and enforced by ``Vault`` at every use in every
/// process (``Vault/sign(_:withKey:service:encoding:operationPrompt:context:)``,
/// ``Vault/decrypt(_:withKey:service:operationPrompt:context:)``,
/// ``Vault/sharedSecret(withKey:service:peer:operationPrompt:context:)``).
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
    /// leave it out of such a connection's listing (issue 26). Enforced by
    /// `SesameSSH`'s agent, the only place a forwarding can be seen; a use
    /// through the vault itself is never forwarded.
    public var refusesForwarding: Bool

    /// No constraint: the key lives until deleted and its access control alone decides.
    public static let none = KeyConstraints()

    /// - Parameters:
    ///   - expires: When the key stops existing; `nil` for never.
    ///   - confirmEachUse: Whether every use asks the owner.
    ///   - refusesForwarding: Whether forwarded agent connections may not use it.
    public init(expires: Date? = nil, confirmEachUse: Bool = false, refusesForwarding: Bool = false) {
        self.expires = expires
        self.confirmEachUse = confirmEachUse
        self.refusesForwarding = refusesForwarding
    }

    /// Whether there is no constraint at all.
    public var isEmpty: Bool { expires == nil && !confirmEachUse && !refusesForwarding }

    /// Whether the lifetime has ended at `date`.
    ///
    /// - Parameter date: The time to judge by.
    /// - Returns: `true` from the expiry on; `false` without a lifetime.
    public func hasExpired(at date: Date) -> Bool { expires.map { date >= $0 } ?? false }

    /// The stricter of both: confirmation when either asks for it, the
    /// earlier expiry. Constraints are only ever tightened, never loosened,
    /// by whoever can reach the key (an agent's socket, say).
    ///
    /// - Parameter other: Constraints to add.
    /// - Returns: Both together.
    public func tightened(by other: KeyConstraints) -> KeyConstraints {
        let expiry: Date? = switch (expires, other.expires) {
        case let (mine?, theirs?): min(mine, theirs)
        case let (mine, theirs): mine ?? theirs
        }
        return KeyConstraints(expires: expiry, confirmEachUse: confirmEachUse || other.confirmEachUse,
                              refusesForwarding: refusesForwarding || other.refusesForwarding)
    }
}
