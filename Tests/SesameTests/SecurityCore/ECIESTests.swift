import Crypto
import Testing
@testable import Sesame

/// Known answers for ``ECIES`` and the key agreement under it, through
/// Sesame's own key type (``PrivateKeyMaterial``): RFC 7748's X25519 vectors,
/// a NIST CAVS ECC CDH vector for P-256, and a fixed ciphertext for each
/// curve, computed independently (Python `cryptography`: X9.63 KDF, AES-GCM).
///
/// A fixed ephemeral key makes the ciphertext fixed; Sesame draws a fresh
/// one per message, so these tests pass the agreed secret to ``ECIES/seal``
/// directly.
@Suite("Security core: ECIES and key agreement known answers")
struct ECIESTests {
    static let plaintext = Array("Sesame ECIES known answer".utf8)

    /// RFC 7748 §6.1.
    enum RFC7748 {
        static let alicePrivate = hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        static let alicePublic = hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        static let bobPrivate = hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        static let bobPublic = hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        static let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
    }

    /// NIST CAVS 14.1 KAS ECC CDH primitive, P-256, COUNT = 0.
    enum CAVS {
        static let peerPublic = hex("""
            04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287
            db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac
            """)
        static let ownPrivate = hex("7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534")
        static let ownPublic = hex("""
            04ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230
            28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141
            """)
        static let shared = "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b"
    }

    func bytes(_ secret: SharedSecret) -> [UInt8] {
        secret.withUnsafeBytes { Array($0) }
    }

    @Test("D7: RFC 7748 §5.2: X25519 of the scalar and u-coordinate is the published output", arguments: [
        ("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
         "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
         "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
        // Its u has the top bit set, which X25519 must ignore.
        ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
         "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
         "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
    ])
    func x25519Function(scalar: String, u: String, output: String) throws {
        let key = try PrivateKeyMaterial(algorithm: .x25519, stored: hex(scalar))
        let peer = try PublicKey(algorithm: .x25519, rawRepresentation: hex(u))
        #expect(bytes(try key.sharedSecret(with: peer)).hexString == output)
    }

    @Test("D7: RFC 7748 §6.1: each side's public key and the shared secret K")
    func x25519Agreement() throws {
        let alice = try PrivateKeyMaterial(algorithm: .x25519, stored: RFC7748.alicePrivate)
        let bob = try PrivateKeyMaterial(algorithm: .x25519, stored: RFC7748.bobPrivate)
        #expect(alice.publicKey.rawRepresentation.hexString == RFC7748.alicePublic.hexString)
        #expect(bob.publicKey.rawRepresentation.hexString == RFC7748.bobPublic.hexString)
        #expect(bytes(try alice.sharedSecret(with: bob.publicKey)).hexString == RFC7748.shared)
        #expect(bytes(try bob.sharedSecret(with: alice.publicKey)).hexString == RFC7748.shared)
    }

    @Test("D7: NIST CAVS P-256 ECDH: the public key and Z")
    func p256Agreement() throws {
        let own = try PrivateKeyMaterial(algorithm: .p256Agreement, stored: CAVS.ownPrivate)
        #expect(own.publicKey.rawRepresentation.hexString == CAVS.ownPublic.hexString)
        let peer = try PublicKey(algorithm: .p256Agreement, rawRepresentation: CAVS.peerPublic)
        #expect(bytes(try own.sharedSecret(with: peer)).hexString == CAVS.shared)
    }

    /// X25519: E = Alice's public key, recipient Bob. K ‖ IV = X9.63-KDF(Z, E)
    /// = cb92f019b7b32fbc718df1489204711e ‖ 39b660cb5b88e99fd8aec6b0d57ea10a.
    static let x25519Ciphertext = hex("""
        8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a
        09c85742cab89850eb1218465acb4ddea7b5d8cd4eeb535666
        b6e85075b4f9c4174015bd1bb7708e2f
        """)

    /// P-256: E = the CAVS peer's public key, recipient the CAVS private key.
    /// K ‖ IV = 3cd6ad60eed24331abdc9fce53d00311 ‖ b415dea26ab06a2e7a7cdf0886d92722.
    static let p256Ciphertext = hex("""
        04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287
        db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac
        09a8bdc2c1ef94a28dfc9becc6e4a0fb80363cf58bd124c916
        ce1e705df0d24b8842a2ca4cb3f3b4d4
        """)

    @Test("D7: X25519 ECIES: a fixed secret and ephemeral key seal to fixed bytes (E ‖ C ‖ T), which the recipient opens")
    func x25519Ciphertext() throws {
        let alice = try PrivateKeyMaterial(algorithm: .x25519, stored: RFC7748.alicePrivate)
        let bob = try PrivateKeyMaterial(algorithm: .x25519, stored: RFC7748.bobPrivate)
        let secret = try alice.sharedSecret(with: bob.publicKey)
        let sealed = try ECIES.seal(Self.plaintext, sharedSecret: secret, ephemeralPublicKey: RFC7748.alicePublic)
        #expect(sealed.hexString == Self.x25519Ciphertext.hexString)
        #expect(try bob.decrypt(Self.x25519Ciphertext) == Self.plaintext)
    }

    @Test("D7: P-256 ECIES: a fixed secret and ephemeral key seal to fixed bytes (E ‖ C ‖ T), which the recipient opens")
    func p256Ciphertext() throws {
        let own = try PrivateKeyMaterial(algorithm: .p256Agreement, stored: CAVS.ownPrivate)
        let secret = try own.sharedSecret(with: PublicKey(algorithm: .p256Agreement, rawRepresentation: CAVS.peerPublic))
        let sealed = try ECIES.seal(Self.plaintext, sharedSecret: secret, ephemeralPublicKey: CAVS.peerPublic)
        #expect(sealed.hexString == Self.p256Ciphertext.hexString)
        #expect(try own.decrypt(Self.p256Ciphertext) == Self.plaintext)
    }

    @Test("D7: A changed byte anywhere (E, C or T) does not open", arguments: [0, 40, 32 + 25 + 15])
    func changedByte(at index: Int) throws {
        let bob = try PrivateKeyMaterial(algorithm: .x25519, stored: RFC7748.bobPrivate)
        var changed = Self.x25519Ciphertext
        changed[index] ^= 0x01
        #expect(try bob.decrypt(changed) == nil)
    }
}
