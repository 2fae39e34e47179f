import Crypto
import CryptoExtras
import SwiftASN1

/// RSA keys as Sesame keeps them (SPEC D7): the public key's raw form is
/// its PKCS#1 `RSAPublicKey` DER, the stored private key its PKCS#1
/// `RSAPrivateKey` DER; the modulus is 2048, 3072 or 4096 bits, exactly as
/// the algorithm says. Every operation is swift-crypto's (BoringSSL).
enum RSAKeys {
    /// The modulus and public exponent of a PKCS#1 `RSAPublicKey`, as
    /// unsigned big-endian bytes.
    static func primitives(pkcs1 der: [UInt8]) throws -> (n: [UInt8], e: [UInt8]) {
        let root = try DER.parse(der)
        return try DER.sequence(root, identifier: .sequence) { nodes in
            let n = try ArraySlice<UInt8>(derEncoded: &nodes)
            let e = try ArraySlice<UInt8>(derEncoded: &nodes)
            return (Array(n), Array(e))
        }
    }

    /// The public key of `algorithm` whose canonical PKCS#1 DER is `raw`;
    /// `nil` for anything else (another size, non-canonical DER, garbage).
    static func publicKey(_ algorithm: KeyAlgorithm, raw: [UInt8]) -> _RSA.Signing.PublicKey? {
        guard let bits = algorithm.rsaBits, let (n, e) = try? primitives(pkcs1: raw),
              let key = try? _RSA.Signing.PublicKey(n: n, e: e),
              key.keySizeInBits == bits, Array(key.pkcs1DERRepresentation) == raw else { return nil }
        return key
    }

    /// The algorithm of an RSA private key, by its modulus size.
    static func algorithm(of key: _RSA.Signing.PrivateKey) throws(VaultError) -> KeyAlgorithm {
        guard let algorithm = KeyAlgorithm.rsa(bits: key.keySizeInBits) else {
            throw VaultError(.invalidArgument, "This is a \(key.keySizeInBits)-bit RSA key; Sesame keeps 2048, 3072 and 4096-bit RSA keys")
        }
        return algorithm
    }

    /// Signs `data` with `scheme` (the hash of `data` is taken here).
    static func sign(_ data: [UInt8], with key: _RSA.Signing.PrivateKey, scheme: RSASignatureScheme) throws -> [UInt8] {
        let signature: _RSA.Signing.RSASignature = switch scheme {
        case .pkcs1SHA256: try key.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        case .pkcs1SHA512: try key.signature(for: SHA512.hash(data: data), padding: .insecurePKCS1v1_5)
        case .pssSHA256: try key.signature(for: SHA256.hash(data: data), padding: .PSS)
        case .pssSHA512: try key.signature(for: SHA512.hash(data: data), padding: .PSS)
        // Only reached for a key marked for it: Vault checks the mark before the key is unsealed.
        case .pkcs1SHA1: try key.signature(for: Insecure.SHA1.hash(data: data), padding: .insecurePKCS1v1_5)
        }
        return Array(signature.rawRepresentation)
    }

    /// Whether `signature` is `key`'s signature of `data` under `scheme`.
    static func isValid(_ signature: [UInt8], for data: [UInt8], by key: _RSA.Signing.PublicKey, scheme: RSASignatureScheme) -> Bool {
        let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
        return switch scheme {
        case .pkcs1SHA256: key.isValidSignature(parsed, for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        case .pkcs1SHA512: key.isValidSignature(parsed, for: SHA512.hash(data: data), padding: .insecurePKCS1v1_5)
        case .pssSHA256: key.isValidSignature(parsed, for: SHA256.hash(data: data), padding: .PSS)
        case .pssSHA512: key.isValidSignature(parsed, for: SHA512.hash(data: data), padding: .PSS)
        case .pkcs1SHA1: key.isValidSignature(parsed, for: Insecure.SHA1.hash(data: data), padding: .insecurePKCS1v1_5)
        }
    }
}
