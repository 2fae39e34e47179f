import Sesame

/// A key as a key source shows it to the agent: what identifies it, what is
/// shown for it, its public key and the constraints stored with it (SPEC D8).
/// Never its private part: a source keeps that and signs itself (SPEC D7).
public struct SSHSourceKey: Sendable, Hashable {
    /// The source's own name for the key, stable across listings; the agent
    /// hands it back to ``SSHKeySource/key(id:)`` and ``SSHKeySource/sign(_:with:rsaScheme:reason:context:)``.
    public let id: String
    /// Its label for people, if it has one. Text from outside: escaped
    /// wherever the agent shows it.
    public let label: String?
    /// Its public key; its algorithm is the key's.
    public let publicKey: PublicKey
    /// What the key allows: lifetime, confirmation, destinations,
    /// forwarding, SHA-1 (SPEC D8). The agent checks destinations,
    /// forwarding and SHA-1 before anyone is asked; the source enforces the
    /// rest when it signs.
    public let constraints: KeyConstraints

    /// - Parameters:
    ///   - id: The source's name for the key.
    ///   - label: Its label for people, if any.
    ///   - publicKey: Its public key.
    ///   - constraints: Its stored constraints; none by default.
    public init(id: String, label: String?, publicKey: PublicKey, constraints: KeyConstraints = .none) {
        self.id = id
        self.label = label
        self.publicKey = publicKey
        self.constraints = constraints
    }

    /// What the agent calls it: its label, else its identifier. Not escaped.
    public var displayName: String { label ?? id }
}
