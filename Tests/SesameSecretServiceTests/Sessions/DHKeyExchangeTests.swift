import BigInt
import Crypto
import Foundation
import Sesame
import SesameLinux
@testable import SesameSecretService
import Testing

/// The DH session's key agreement against python3-secretstorage's dhcrypto
/// (the answers below were computed with it, see each test).
@Suite("Secret Service: dh-ietf1024-sha256-aes128-cbc-pkcs7 key agreement")
struct DHKeyExchangeTests {
    /// Client private key 0x0707…07 (128 bytes); its public key is `clientPublic`.
    static let clientPublic = "09580b53f391f38bc324c9256138fb141322c4212301b4b08117a00a135f4bc5a4406b5d3d4a0d3be0a49410ff1e3831cfa4ba0436f3ed0a67b40c812cebe4453e9dc8e4d8dc3a9cf2f4b2b213d94254a0f0b1c7a0a3df17d6ea1b2f85e7598b3ceca899057eb2d6f8f0a07f7f93690cd880915504618c373ec7e9d20e547bf4"

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test("SPEC D10: a shared secret of 127 bytes is left-padded to 128 before HKDF, as libsecret and secretstorage do",
          arguments: [DHKeyExchange.Engine.libcrypto, .bigInt])
    func paddedSharedSecret(engine: DHKeyExchange.Engine) throws {
        // Server key 2^255 + 0x31ca gives a shared secret whose first byte is
        // zero; dhcrypto derives 65f14074681d17a8761b1a4de683b79d from it.
        let privateKey = (BigUInt(1) << 255) + BigUInt(0x31ca)
        let agreed = try DHKeyExchange.agree(clientPublic: SecretBytes(Self.bytes(Self.clientPublic)), privateKey: privateKey, engine: engine)
        let key = agreed.aesKey.withUnsafeBytes { Array($0) }
        #expect(key == Self.bytes("65f14074681d17a8761b1a4de683b79d"))
        #expect(agreed.publicKey.count == 128)
    }

    @Test("SPEC D10: libcrypto computes the exponentiations on this machine (the constant-time engine), and agrees with BigInt on random keys")
    func enginesAgree() throws {
        // libcrypto.so.3 is part of every Debian with OpenSSH or Python; .ci/run installs libssl3 so this holds on CI.
        #expect(LibCryptoModularPower.unavailableReason() == nil)
        #expect(DHKeyExchange.Engine.preferred == .libcrypto)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let privateKey = BigUInt.randomInteger(withExactWidth: 256, using: &generator)
            let peer = BigUInt.randomInteger(lessThan: DHKeyExchange.prime - 3, using: &generator) + 2
            let client = SecretBytes(DHKeyExchange.padded(peer))
            let fast = try DHKeyExchange.agree(clientPublic: client, privateKey: privateKey, engine: .libcrypto)
            let slow = try DHKeyExchange.agree(clientPublic: client, privateKey: privateKey, engine: .bigInt)
            #expect(fast.publicKey == slow.publicKey)
            #expect(fast.publicKey == DHKeyExchange.padded(BigUInt(2).power(privateKey, modulus: DHKeyExchange.prime)))
            #expect(fast.aesKey == slow.aesKey)
        }
    }

    @Test("SPEC D10: libcrypto's exponentiation refuses an even modulus instead of answering")
    func evenModulusRefused() {
        let two: [UInt8] = [2], three: [UInt8] = [3], even: [UInt8] = [0x10, 0x00]
        let result = two.withUnsafeBytes { base in
            three.withUnsafeBytes { exponent in
                even.withUnsafeBytes { modulus in
                    LibCryptoModularPower.power(base: base, exponent: exponent, modulus: modulus, byteCount: 2) { Array($0) }
                }
            }
        }
        #expect(result == nil)
    }

    @Test("SPEC D10: public keys outside 1 < y < p-1 are refused", arguments: [DHKeyExchange.Engine.libcrypto, .bigInt])
    func invalidKeys(engine: DHKeyExchange.Engine) {
        let p = DHKeyExchange.prime
        for key in [BigUInt(0), BigUInt(1), p - 1, p, p + 1] {
            #expect(throws: DHKeyExchange.Failure.self) {
                _ = try DHKeyExchange.agree(clientPublic: SecretBytes([UInt8](key.serialize())), privateKey: BigUInt(12345), engine: engine)
            }
        }
        #expect(throws: DHKeyExchange.Failure.self) {
            _ = try DHKeyExchange.agree(clientPublic: SecretBytes([UInt8](repeating: 0xff, count: 2000)), privateKey: BigUInt(12345), engine: engine)
        }
    }

    @Test("SPEC D10: a session's seal opens with its open, and a flipped byte or a wrong IV size is an error, not a crash")
    func sealOpen() throws {
        let key = SymmetricKey(size: .bits128)
        let session = TransportSession(owner: ":1.1", path: "/org/freedesktop/secrets/session/1", algorithm: .dh(key))
        let sealed = try session.seal(SecretBytes(utf8: "value"))
        #expect(sealed.parameters.count == 16)
        let opened = try session.open(parameters: sealed.parameters, value: sealed.value)
        #expect(opened.constantTimeEquals(SecretBytes(utf8: "value")))
        #expect(throws: TransportSession.Failure.self) {
            _ = try session.open(parameters: SecretBytes([1, 2, 3]), value: sealed.value)
        }
        var tampered = sealed.value.withUnsafeBytes { Array($0) }
        tampered[tampered.count - 1] ^= 0x5a
        // A wrong last block almost always breaks the padding; when it does not, the value differs.
        if let wrong = try? session.open(parameters: sealed.parameters, value: SecretBytes(tampered)) {
            #expect(!wrong.constantTimeEquals(SecretBytes(utf8: "value")))
        }
    }
}
