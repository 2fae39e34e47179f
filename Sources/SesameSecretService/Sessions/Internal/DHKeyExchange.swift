import BigInt
import Crypto
import Foundation
import Sesame
import SesameLinux

/// The key agreement of `dh-ietf1024-sha256-aes128-cbc-pkcs7` exactly as
/// libsecret (egg-dh.c) and python-secretstorage (dhcrypto.py) do it: RFC 2409's
/// second Oakley group (1024-bit MODP, generator 2), the shared secret as
/// big-endian bytes left-padded to 128, and HKDF-SHA256 with no salt (32 zero
/// bytes) and empty info, of which the first 16 bytes are the AES-128 key.
///
/// The exponentiations are OpenSSL libcrypto's `BN_mod_exp_mont_consttime`
/// (opened at run time, ``LibCryptoModularPower``): constant-time in the
/// private exponent, and about forty times faster than a pure-Swift one.
/// Where libcrypto is missing they fall back to attaswift/BigInt, which is
/// NOT constant-time: its running time depends on the private exponent. That
/// fallback is acceptable because the private key is fresh for every session
/// and used for exactly one exponentiation with the peer's key (no oracle to
/// repeat against), the peer is a process of the same uid on the same machine
/// (which could read our memory anyway), and the group itself (1024 bits) is
/// the protocol's, not a strength we add. swift-crypto offers no modular
/// exponentiation.
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

    /// Who computes the exponentiations.
    enum Engine: Sendable, Equatable {
        /// OpenSSL's libcrypto, constant-time.
        case libcrypto
        /// attaswift/BigInt, where libcrypto cannot be opened.
        case bigInt

        /// libcrypto when it can be opened, else BigInt.
        static var preferred: Engine { LibCryptoModularPower.unavailableReason() == nil ? .libcrypto : .bigInt }
    }

    /// Agrees on a key with a client.
    /// - Parameter clientPublic: The client's public key, big-endian.
    /// - Returns: Our public key (128 bytes, big-endian) and the AES-128 key.
    /// - Throws: ``Failure/invalidPublicKey`` for a key outside 1 < y < p-1.
    static func respond(to clientPublic: SecretBytes) throws(Failure) -> (publicKey: [UInt8], aesKey: SymmetricKey) {
        var privateKey = [UInt8](repeating: 0, count: privateKeyByteCount)
        defer { privateKey.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        var generator = SystemRandomNumberGenerator()
        for index in privateKey.indices { privateKey[index] = generator.next() }
        // At least 2^255, so the exponent is never small.
        privateKey[0] |= 0x80
        return try agree(clientPublic: clientPublic, privateKey: privateKey, engine: .preferred)
    }

    /// ``respond(to:)`` with a given private key (known-answer tests).
    static func agree(clientPublic: SecretBytes, privateKey: BigUInt, engine: Engine = .preferred) throws(Failure) -> (publicKey: [UInt8], aesKey: SymmetricKey) {
        try agree(clientPublic: clientPublic, privateKey: [UInt8](privateKey.serialize()), engine: engine)
    }

    /// The agreement with a private key given as big-endian bytes.
    static func agree(clientPublic: SecretBytes, privateKey: [UInt8], engine: Engine) throws(Failure) -> (publicKey: [UInt8], aesKey: SymmetricKey) {
        guard clientPublic.count <= 1024 else { throw .invalidPublicKey }
        let peer = clientPublic.withUnsafeBytes { BigUInt(Data($0)) }
        guard peer > 1, peer < prime - 1 else { throw .invalidPublicKey }
        let publicKey = power(generatorBytes, privateKey, engine: engine)
        var shared = clientPublic.withUnsafeBytes { power(Array($0), privateKey, engine: engine) }
        defer { shared.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        guard publicKey.count == byteCount, shared.count == byteCount else {
            // libcrypto refused the numbers: nothing this group can cause.
            throw .invalidPublicKey
        }
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: shared), salt: [UInt8](repeating: 0, count: 32),
                                         info: [UInt8](), outputByteCount: 16)
        return (publicKey, key)
    }

    private static let primeBytes = padded(prime)
    private static let generatorBytes: [UInt8] = [2]

    /// `base^exponent mod p`, padded to 128 bytes; empty if libcrypto failed.
    private static func power(_ base: [UInt8], _ exponent: [UInt8], engine: Engine) -> [UInt8] {
        switch engine {
        case .libcrypto:
            return base.withUnsafeBytes { base in
                exponent.withUnsafeBytes { exponent in
                    primeBytes.withUnsafeBytes { modulus in
                        LibCryptoModularPower.power(base: base, exponent: exponent, modulus: modulus, byteCount: byteCount) { Array($0) }
                    }
                }
            } ?? []
        case .bigInt:
            return padded(BigUInt(Data(base)).power(BigUInt(Data(exponent)), modulus: prime))
        }
    }

    /// Big-endian, left-padded with zeros to 128 bytes (libsecret pads the
    /// shared secret; a 127-byte one would derive another key).
    static func padded(_ value: BigUInt) -> [UInt8] {
        let bytes = [UInt8](value.serialize())
        return [UInt8](repeating: 0, count: max(0, byteCount - bytes.count)) + bytes
    }
}
