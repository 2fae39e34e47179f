#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A protected key's attributes and public key: everything but the private
/// key, which never leaves the vault (SPEC D7).
///
/// ``VaultKeys/key(service:name:)`` and ``VaultKeys/list(service:)`` return these
/// without decrypting anything, so they never prompt.
public struct VaultKey: Sendable, Hashable {
    /// The service the key belongs to, e.g. `"ssh"`.
    public let service: String
    /// The key's name within the service.
    public let name: String
    /// A label for people, if any (an OpenSSH comment, say).
    public let label: String?
    /// The algorithm, and so what the key can do.
    public let algorithm: KeyAlgorithm
    /// When it may be used; always a "ThisDeviceOnly" class.
    public let accessibility: ItemAccessibility
    /// Who may use it; always contains `privateKeyUsage`.
    public let accessControl: AccessControl
    /// The public key; reading it never prompts.
    public let publicKey: PublicKey
    /// When it was created or imported.
    public let created: Date
    /// Its lifetime and confirmation (SPEC D8), enforced by the vault at every use.
    public let constraints: KeyConstraints
}
