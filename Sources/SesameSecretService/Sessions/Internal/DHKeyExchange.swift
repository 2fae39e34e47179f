import BigInt
import Crypto
import Foundation
import Sesame

/// The key agreement of `dh-ietf1024-sha256-aes128-cbc-pkcs7` exactly as
/// libsecret (egg-dh.c) and python-secretstorage (dhcrypto.py) do it: RFC 2409's
/// second Oakley group (1024-bit MODP, generator 2), the shared secret as
/// big-endian bytes left-padded to 128, and HKDF-SHA256 with no salt (32 zero
/// bytes) and empty info, of which the first 16 bytes are the AES-128 key.
///
/// The exponentiation is attaswift/BigInt's, which is NOT constant-time:
/// its running time depends on the private exponent. That is acceptable here
/// because the private key is fresh for every session and used for exactly
/// one exponentiation with the peer's key (no oracle to repeat against), the
/// peer is a process of the same uid on the same machine (which could read
/// our memory anyway), and the group itself (1024 bits) is the protocol's,
/// not a strength we add. swift-crypto offers no modular exponentiation.
enum DHKeyExchange {
    /// RFC 2409 section 6.2, the 1024-bit MODP group.
    static let prime = BigUInt(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
            + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", radix: 16)!
    static let generator = BigUInt(2)
    static let byteCount = 128
    /// The private exponent's size: 256 bits, a "short exponent" (NIST SP
    /// 800-56A, RFC 3526 section 8: twice the group's strength, here about 80
    /// bits, is enough). A full 1024-bit one would cost four times as much
    /// for no strength the group can give.
    static let privateKeyByteCount = 32

    enum Failure: Error {
        /// Not 1 < y < p-1: a key that forces a known shared secret.
        case invalidPublicKey
    }

    /// Agrees on a key with a client.
    /// - Parameter clientPublic: The client's public key, big-endian.
    /// - Returns: Our public key (128 bytes, big-endian) and the AES-128 key.
    static func respond(to clientPublic: SecretBytes) throws(Failure) -> (publicKey: [UInt8], aesKey: SymmetricKey) {
        var random = [UInt8](repeating: 0, count: privateKeyByteCount)
        var generator = SystemRandomNumberGenerator()
        for index in random.indices { random[index] = generator.next() }
        // At least 2^255, so the exponent is never small.
        random[0] |= 0x80
        let privateKey = BigUInt(Data(random))
        random.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        return try agree(clientPublic: clientPublic, privateKey: privateKey)
    }

    /// ``respond(to:)`` with a given private key (known-answer tests).
    static func agree(clientPublic: SecretBytes, privateKey: BigUInt) throws(Failure) -> (publicKey: [UInt8], aesKey: SymmetricKey) {
        guard clientPublic.count <= 1024 else { throw .invalidPublicKey }
        let peer = clientPublic.withUnsafeBytes { BigUInt(Data($0)) }
        guard peer > 1, peer < prime - 1 else { throw .invalidPublicKey }
        let publicKey = generatorPower(privateKey)
        var shared = padded(peer.power(privateKey, modulus: prime))
        defer { shared.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: shared), salt: [UInt8](repeating: 0, count: 32),
                                         info: [UInt8](), outputByteCount: 16)
        return (padded(publicKey), key)
    }

    private static func generatorPower(_ exponent: BigUInt) -> BigUInt {
        generator.power(exponent, modulus: prime)
    }

    /// Big-endian, left-padded with zeros to 128 bytes (libsecret pads the
    /// shared secret; a 127-byte one would derive another key).
    static func padded(_ value: BigUInt) -> [UInt8] {
        let bytes = [UInt8](value.serialize())
        return [UInt8](repeating: 0, count: max(0, byteCount - bytes.count)) + bytes
    }
}
