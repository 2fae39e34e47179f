import Crypto
import Sesame

/// A private key sent by `ssh-add` (`SSH_AGENTC_ADD_IDENTITY`, 17, or
/// `SSH_AGENTC_ADD_ID_CONSTRAINED`, 25): `ssh-ed25519` or
/// `ecdsa-sha2-nistp256`, checked for consistency when parsed.
public struct SSHAgentKey: Sendable {
    /// `KeyAlgorithm.ed25519` or `KeyAlgorithm.p256`.
    public let algorithm: KeyAlgorithm
    /// 32 bytes: the Ed25519 seed, or the P-256 scalar (big-endian,
    /// left-padded with zeros).
    public let privateKey: SecretBytes
    /// The public key, valid and derived from ``privateKey``.
    public let publicKey: PublicKey

    /// Checks that `privateKey` is a valid key of `algorithm` whose public
    /// key is `publicKey`, then keeps a wiped-on-release copy of it.
    ///
    /// - Parameters:
    ///   - algorithm: `KeyAlgorithm.ed25519` or `KeyAlgorithm.p256`.
    ///   - privateKey: 32 bytes; the caller wipes its own copy.
    ///   - publicKey: The raw public key the message carried.
    /// - Throws: ``SSHAgentProtocolError/malformed(_:)`` for another
    ///   algorithm, an invalid key or point, or a mismatch.
    init(algorithm: KeyAlgorithm, privateKey: [UInt8], publicKey: [UInt8]) throws(SSHAgentProtocolError) {
        guard privateKey.count == 32 else { throw .malformed("a \(algorithm) private key is 32 bytes") }
        let derived: [UInt8]? = switch algorithm {
        case .ed25519: (try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey)).map { Array($0.publicKey.rawRepresentation) }
        case .p256: (try? P256.Signing.PrivateKey(rawRepresentation: privateKey)).map { Array($0.publicKey.x963Representation) }
        case .x25519, .p256Agreement: nil
        }
        guard let derived else { throw .malformed("not a valid \(algorithm) private key") }
        guard derived == publicKey, let key = try? PublicKey(algorithm: algorithm, rawRepresentation: publicKey) else {
            throw .malformed("the \(algorithm) public key does not match the private key")
        }
        self.algorithm = algorithm
        self.privateKey = SecretBytes(privateKey)
        self.publicKey = key
    }
}
