#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CryptoExtras

/// OpenSSH's key encodings (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4):
/// the public key blob, and the unencrypted `openssh-key-v1` private key
/// file (OpenSSH's PROTOCOL.key) for import. Its strings are a 32-bit
/// big-endian length and the bytes, which is ``ByteWriter/field(_:)-…``.
package enum SSHKeyEncoding {
    package static let ed25519Type = "ssh-ed25519"
    package static let p256Type = "ecdsa-sha2-nistp256"
    package static let p256Curve = "nistp256"
    package static let p384Type = "ecdsa-sha2-nistp384"
    package static let p521Type = "ecdsa-sha2-nistp521"
    /// RSA keys' type; their signatures are named by the hash (RFC 8332).
    package static let rsaType = "ssh-rsa"

    /// The key type name, for signing keys only.
    package static func keyType(_ algorithm: KeyAlgorithm) -> String? {
        switch algorithm {
        case .ed25519: ed25519Type
        case .p256: p256Type
        case .p384: p384Type
        case .p521: p521Type
        case .rsa2048, .rsa3072, .rsa4096: rsaType
        case .x25519, .p256Agreement: nil
        }
    }

    /// The ECDSA curve's name in key blobs (RFC 5656 §6.1); `nil` for the others.
    package static func curveName(_ algorithm: KeyAlgorithm) -> String? {
        switch algorithm {
        case .p256: p256Curve
        case .p384: "nistp384"
        case .p521: "nistp521"
        default: nil
        }
    }

    /// The ECDSA algorithm of a key type name.
    package static func ecdsaAlgorithm(type: String) -> KeyAlgorithm? {
        [KeyAlgorithm.p256, .p384, .p521].first { keyType($0) == type }
    }

    /// The length of an ECDSA scalar (and of r or s) in bytes.
    package static func scalarLength(_ algorithm: KeyAlgorithm) -> Int {
        switch algorithm {
        case .p384: 48
        case .p521: 66
        default: 32
        }
    }

    /// `string type ‖ string key` (Ed25519), `string type ‖ string curve ‖
    /// string Q` (ECDSA) or `string "ssh-rsa" ‖ mpint e ‖ mpint n` (RFC 4253
    /// §6.6); `nil` for key-agreement keys.
    package static func publicKeyBlob(_ key: PublicKey) -> [UInt8]? {
        guard let type = keyType(key.algorithm) else { return nil }
        var writer = ByteWriter()
        writer.field(type)
        if key.algorithm.rsaBits != nil {
            // The raw form was validated as canonical PKCS#1 when the key was made.
            guard let (n, e) = try? RSAKeys.primitives(pkcs1: key.rawRepresentation) else { return nil }
            writer.field(mpint(e))
            writer.field(mpint(n))
            return writer.bytes
        }
        if let curve = curveName(key.algorithm) { writer.field(curve) }
        writer.field(key.rawRepresentation)
        return writer.bytes
    }

    /// An unsigned big-endian number as an SSH mpint's contents (RFC 4251
    /// §5): no leading zeros, one 0x00 in front when the top bit is set.
    package static func mpint(_ magnitude: some Collection<UInt8>) -> [UInt8] {
        let digits = Array(magnitude.drop(while: { $0 == 0 }))
        guard let first = digits.first else { return [] }
        return first & 0x80 != 0 ? [0] + digits : digits
    }

    /// A non-negative SSH mpint's magnitude (leading zeros dropped); `nil`
    /// for a negative one.
    package static func unsigned(mpint: [UInt8]) -> [UInt8]? {
        guard mpint.first.map({ $0 & 0x80 == 0 }) ?? true else { return nil }
        return Array(mpint.drop(while: { $0 == 0 }))
    }

    /// A non-negative mpint of at most `count` bytes, left-padded to
    /// `count`: an ECDSA scalar, r or s. `nil` for a negative or longer one.
    package static func fixed(mpint: [UInt8], count: Int) -> [UInt8]? {
        guard let digits = unsigned(mpint: mpint), digits.count <= count else { return nil }
        return Array(repeating: 0, count: count - digits.count) + digits
    }

    /// An SSH mpint (RFC 4251 §5: big-endian, a 0x00 in front when the top
    /// bit is set) that must be a non-negative number of at most 32 bytes,
    /// as 32 bytes: a P-256 scalar, or an ECDSA signature's r or s. `nil`
    /// for a negative or longer one. One reader for the key file, the
    /// agent's add-identity message and session-bind signatures.
    package static func fixed32(mpint: [UInt8]) -> [UInt8]? {
        fixed(mpint: mpint, count: 32)
    }

    /// Why a key type is refused, for `sesame key import` and the agent's log.
    package static func unsupportedTypeReason(_ type: String) -> String {
        let shown = type.escapingControlCharacters()
        if type.hasPrefix("sk-") {
            return "\(shown) is a FIDO security key: its private key lives on the token, which signs with a touch; Sesame cannot hold it (keep it in OpenSSH's agent, or make a Sesame key with sesame key create)"
        }
        if type.contains("-cert-v01@openssh.com") {
            return "\(shown) is a certificate; Sesame keeps plain keys (ssh-ed25519, ecdsa-sha2-nistp256/384/521, ssh-rsa)"
        }
        if type == "ssh-dss" { return "ssh-dss (DSA) keys are obsolete and refused, as OpenSSH refuses them" }
        return "OpenSSH \(shown) keys are not supported; Sesame keeps ssh-ed25519, ecdsa-sha2-nistp256/384/521 and ssh-rsa (2048, 3072, 4096 bits) keys"
    }

    /// An RSA key from OpenSSH's numbers (unsigned mpints), as the stored
    /// form, its algorithm and its raw public key; swift-crypto checks the
    /// numbers belong together.
    package static func rsaPrivateKey(n: [UInt8], e: [UInt8], d: [UInt8], p: [UInt8], q: [UInt8]) throws(VaultError) -> (algorithm: KeyAlgorithm, stored: [UInt8], publicKey: [UInt8]) {
        var parts = [n, e, d, p, q].map { unsigned(mpint: $0) }
        defer { for index in parts.indices { if parts[index] != nil { wipe(&parts[index]!) } } }
        guard let n = parts[0], let e = parts[1], let d = parts[2], let p = parts[3], let q = parts[4] else {
            throw VaultError(.invalidArgument, "An RSA key with a negative number")
        }
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(n: n, e: e, d: d, p: p, q: q)
        } catch {
            throw VaultError(.invalidArgument, "The RSA key's numbers do not make a valid key of 2048 bits or more")
        }
        let algorithm = try RSAKeys.algorithm(of: key)
        return (algorithm, Array(key.derRepresentation), Array(key.publicKey.pkcs1DERRepresentation))
    }

    /// What an OpenSSH private key file holds.
    package struct PrivateKeyFile {
        var algorithm: KeyAlgorithm
        /// The stored form (``PrivateKeyMaterial``): Ed25519's seed, the
        /// ECDSA scalar, RSA's PKCS#1 DER.
        var privateKey: [UInt8]
        var publicKey: [UInt8]
        var comment: String
    }

    /// The base64 body of an `OPENSSH PRIVATE KEY` block, decoded; `nil`
    /// when `text` is not exactly one such block.
    package static func armoredPrivateKeyFile(_ text: String) -> [UInt8]? {
        let begin = "-----BEGIN OPENSSH PRIVATE KEY-----", end = "-----END OPENSSH PRIVATE KEY-----"
        var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == begin, lines.last == end else { return nil }
        lines.removeFirst()
        lines.removeLast()
        return Data(base64Encoded: lines.joined()).map { Array($0) }
    }

    /// Parses the binary body of an `OPENSSH PRIVATE KEY` block.
    ///
    /// - Throws: ``VaultError`` `invalidArgument`: not such a file, a
    ///   passphrase-protected one (Sesame does not run bcrypt_pbkdf), more
    ///   than one key, an unsupported key type, or inconsistent contents.
    package static func parsePrivateKeyFile(_ bytes: [UInt8]) throws(VaultError) -> PrivateKeyFile {
        let magic = Array("openssh-key-v1".utf8) + [0]
        guard bytes.starts(with: magic) else { throw VaultError(.invalidArgument, "Not an OpenSSH private key (no openssh-key-v1 header)") }
        var reader = ByteReader(Array(bytes.dropFirst(magic.count)))
        do {
            let cipher = String(decoding: try reader.field(), as: UTF8.self)
            let kdf = String(decoding: try reader.field(), as: UTF8.self)
            _ = try reader.field()
            guard cipher == "none", kdf == "none" else {
                throw VaultError(.invalidArgument, "This OpenSSH key is protected by a passphrase (\(cipher)); remove it on a copy first (ssh-keygen -p -N '' -f COPY), import the copy, then delete the copy")
            }
            guard try reader.u32() == 1 else { throw VaultError(.invalidArgument, "The OpenSSH file holds more than one key; import one at a time") }
            _ = try reader.field()
            var section = ByteReader(try reader.field())
            guard reader.isAtEnd else { throw ByteReaderError() }
            guard try section.u32() == section.u32() else { throw VaultError(.invalidArgument, "The OpenSSH key's check bytes differ: the file is damaged") }
            let type = String(decoding: try section.field(), as: UTF8.self)
            var file: PrivateKeyFile
            switch type {
            case ed25519Type:
                let publicKey = try section.field()
                let secret = try section.field()
                guard publicKey.count == 32, secret.count == 64, Array(secret[32...]) == publicKey else { throw ByteReaderError() }
                file = PrivateKeyFile(algorithm: .ed25519, privateKey: Array(secret[..<32]), publicKey: publicKey, comment: "")
            case p256Type, p384Type, p521Type:
                let algorithm = ecdsaAlgorithm(type: type)!  // !: one of the three types
                guard String(decoding: try section.field(), as: UTF8.self) == curveName(algorithm) else { throw ByteReaderError() }
                let publicKey = try section.field()
                guard let scalar = fixed(mpint: try section.field(), count: scalarLength(algorithm)) else { throw ByteReaderError() }
                file = PrivateKeyFile(algorithm: algorithm, privateKey: scalar, publicKey: publicKey, comment: "")
            case rsaType:
                // n, e, d, iqmp, p, q (OpenSSH's PROTOCOL.key; iqmp is recomputed by the library).
                let numbers = try (0..<6).map { _ in try section.field() }
                let key = try rsaPrivateKey(n: numbers[0], e: numbers[1], d: numbers[2], p: numbers[4], q: numbers[5])
                file = PrivateKeyFile(algorithm: key.algorithm, privateKey: key.stored, publicKey: key.publicKey, comment: "")
            default:
                throw VaultError(.invalidArgument, unsupportedTypeReason(type))
            }
            file.comment = String(decoding: try section.field(), as: UTF8.self)
            return file
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.invalidArgument, "The OpenSSH private key is truncated or malformed")
        }
    }
}
