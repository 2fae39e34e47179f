import CryptoExtras
import Sesame

/// RSA public keys from SSH's numbers, made by swift-crypto.
enum RSAPublicKeys {
    /// The key of modulus `n` and exponent `e` (unsigned big-endian); `nil`
    /// unless it is a valid key of 2048, 3072 or 4096 bits.
    static func publicKey(n: [UInt8], e: [UInt8]) -> PublicKey? {
        guard let key = try? _RSA.Signing.PublicKey(n: n, e: e), let algorithm = KeyAlgorithm.rsa(bits: key.keySizeInBits) else { return nil }
        return try? PublicKey(algorithm: algorithm, rawRepresentation: Array(key.pkcs1DERRepresentation))
    }
}
