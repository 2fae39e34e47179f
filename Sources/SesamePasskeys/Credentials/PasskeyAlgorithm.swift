import Sesame

/// A passkey's signature algorithm, by its COSE identifier (RFC 9053).
///
/// Both are the vault's own protected-key algorithms (SPEC D7), so a
/// passkey's private key is made and used inside the vault like any other.
public enum PasskeyAlgorithm: Int, Sendable, Hashable, CaseIterable {
    /// ECDSA over P-256 with SHA-256 (COSE `ES256`, −7): what every relying
    /// party accepts, and the first a client asks for.
    case es256 = -7
    /// Ed25519 (COSE `EdDSA`, −8).
    case edDSA = -8

    /// The COSE algorithm identifier.
    public var coseIdentifier: Int { rawValue }

    /// The vault's key algorithm that makes and holds such a key.
    public var keyAlgorithm: KeyAlgorithm {
        switch self {
        case .es256: .p256
        case .edDSA: .ed25519
        }
    }
}
