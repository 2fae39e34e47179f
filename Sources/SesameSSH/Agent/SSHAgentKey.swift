import Crypto
import CryptoExtras
import Sesame

/// A private key sent by `ssh-add` (`SSH_AGENTC_ADD_IDENTITY`, 17, or
/// `SSH_AGENTC_ADD_ID_CONSTRAINED`, 25): `ssh-ed25519`,
/// `ecdsa-sha2-nistp256/384/521` or `ssh-rsa` (2048, 3072, 4096 bits),
/// checked for consistency when parsed.
public struct SSHAgentKey: Sendable {
    /// A signing algorithm.
    public let algorithm: KeyAlgorithm
    /// The vault's stored form: the Ed25519 seed, the ECDSA scalar
    /// (big-endian, left-padded with zeros to 32, 48 or 66 bytes), or the RSA
    /// key's PKCS#1 `RSAPrivateKey` DER.
    public let privateKey: SecretBytes
    /// The public key, valid and derived from ``privateKey``.
    public let publicKey: PublicKey

    /// Checks that `privateKey` is a valid key of `algorithm` whose public
    /// key is `publicKey`, then keeps a wiped-on-release copy of it.
    ///
    /// - Parameters:
    ///   - algorithm: A signing algorithm.
    ///   - privateKey: The stored form; the caller wipes its own copy.
    ///   - publicKey: The raw public key the message carried.
    /// - Throws: ``SSHAgentProtocolError/malformed(_:)`` for another
    ///   algorithm, an invalid key or point, or a mismatch.
    init(algorithm: KeyAlgorithm, privateKey: [UInt8], publicKey: [UInt8]) throws(SSHAgentProtocolError) {
        let derived: [UInt8]? = switch algorithm {
        case .ed25519: (try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey)).map { Array($0.publicKey.rawRepresentation) }
        case .p256: (try? P256.Signing.PrivateKey(rawRepresentation: privateKey)).map { Array($0.publicKey.x963Representation) }
        case .p384: (try? P384.Signing.PrivateKey(rawRepresentation: privateKey)).map { Array($0.publicKey.x963Representation) }
        case .p521: (try? P521.Signing.PrivateKey(rawRepresentation: privateKey)).map { Array($0.publicKey.x963Representation) }
        case .rsa2048, .rsa3072, .rsa4096:
            (try? _RSA.Signing.PrivateKey(derRepresentation: privateKey)).flatMap {
                $0.keySizeInBits == algorithm.rsaBits ? Array($0.publicKey.pkcs1DERRepresentation) : nil
            }
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
