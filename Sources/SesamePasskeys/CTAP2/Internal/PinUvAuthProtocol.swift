#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Sesame
import CryptoExtras

/// CTAP 2.1's PIN/UV auth protocols one and two (§6.5.6, §6.5.7): the
/// shared secret from the platform's key agreement, the encryption of
/// tokens and hmac-secret values, and the authentication of requests. The
/// primitives are swift-crypto's; only their composition is spelled here.
enum PinUvAuthProtocol: Int, Sendable {
    case one = 1
    case two = 2

    /// The protocol a request names; absent is
    /// `CTAP2_ERR_MISSING_PARAMETER`, unknown `CTAP2_ERR_INVALID_PARAMETER`.
    init(number: Int?) throws(CTAP2Status) {
        guard let number else { throw .missingParameter }
        guard let known = PinUvAuthProtocol(rawValue: number) else { throw .invalidParameter }
        self = known
    }

    /// The authenticator's key agreement key as a COSE_Key (§6.5.6:
    /// kty EC2, alg −25 ECDH-ES+HKDF-256, crv P-256).
    static func coseKey(of key: P256.KeyAgreement.PrivateKey) -> CBORValue {
        let point = Array(key.publicKey.x963Representation)
        return .map([1: 2, 3: -25, -1: 1, -2: .bytes(Array(point[1..<33])), -3: .bytes(Array(point[33..<65]))])
    }

    /// The shared secret with the platform whose COSE_Key is `platformKey`
    /// (§6.5.6 `decapsulate`): protocol one SHA-256(Z), protocol two the
    /// HKDF-SHA-256 HMAC key ‖ AES key.
    func sharedSecret(platformKey: CBORValue, authenticatorKey: P256.KeyAgreement.PrivateKey) throws(CTAP2Status) -> [UInt8] {
        let key = try CTAP2Parameters(platformKey)
        guard try key.required(1, \.intValue) == 2, try key.required(-1, \.intValue) == 1 else { throw .invalidParameter }
        let x = try key.required(-2, \.bytesValue), y = try key.required(-3, \.bytesValue)
        guard x.count == 32, y.count == 32 else { throw .invalidParameter }
        let z: [UInt8]
        do {
            let peer = try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
            z = try authenticatorKey.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
        } catch {
            throw .invalidParameter  // not a point on the curve
        }
        switch self {
        case .one:
            return Array(SHA256.hash(data: z))
        case .two:
            return Self.hkdf(z, info: "CTAP2 HMAC key") + Self.hkdf(z, info: "CTAP2 AES key")
        }
    }

    private static func hkdf(_ z: [UInt8], info: String) -> [UInt8] {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: z), salt: [UInt8](repeating: 0, count: 32), info: Array(info.utf8), outputByteCount: 32
        ).withUnsafeBytes { Array($0) }
    }

    /// AES-256-CBC without padding: protocol one with a zero IV, protocol
    /// two with a random IV put before the ciphertext.
    func encrypt(_ plaintext: [UInt8], sharedSecret: [UInt8]) throws(CTAP2Status) -> [UInt8] {
        let iv = self == .one ? [UInt8](repeating: 0, count: 16) : SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        do {
            let ciphertext = try AES._CBC.encrypt(
                plaintext, using: SymmetricKey(data: aesKey(sharedSecret)), iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
            return (self == .one ? [] : iv) + Array(ciphertext)
        } catch {
            throw .other
        }
    }

    /// The inverse of ``encrypt(_:sharedSecret:)``; a length that is not
    /// whole blocks is `CTAP1_ERR_INVALID_LENGTH`.
    func decrypt(_ ciphertext: [UInt8], sharedSecret: [UInt8]) throws(CTAP2Status) -> [UInt8] {
        let ivLength = self == .one ? 0 : 16
        guard ciphertext.count > ivLength, (ciphertext.count - ivLength) % 16 == 0 else { throw .invalidLength }
        let iv = self == .one ? [UInt8](repeating: 0, count: 16) : Array(ciphertext[..<16])
        do {
            return Array(try AES._CBC.decrypt(
                ciphertext[ivLength...], using: SymmetricKey(data: aesKey(sharedSecret)), iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
        } catch {
            throw .invalidParameter
        }
    }

    /// `authenticate(key, message)`: HMAC-SHA-256, its first 16 bytes in
    /// protocol one; protocol two keys with the first 32 bytes of `key`.
    func authenticate(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let mac = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key.prefix(32))))
        return self == .one ? Array(mac.prefix(16)) : mac
    }

    /// Whether `signature` is `authenticate(key, message)`, compared in
    /// constant time.
    func verify(key: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        SecretBytes(authenticate(key: key, message: message)).constantTimeEquals(SecretBytes(signature))
    }

    private func aesKey(_ sharedSecret: [UInt8]) -> [UInt8] {
        self == .one ? Array(sharedSecret.prefix(32)) : Array(sharedSecret.suffix(32))
    }
}
