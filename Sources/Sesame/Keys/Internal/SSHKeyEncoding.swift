#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// OpenSSH's key encodings (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4):
/// the public key blob, and the unencrypted `openssh-key-v1` private key
/// file (OpenSSH's PROTOCOL.key) for import. Its strings are a 32-bit
/// big-endian length and the bytes, which is ``ByteWriter/field(_:)-…``.
package enum SSHKeyEncoding {
    package static let ed25519Type = "ssh-ed25519"
    package static let p256Type = "ecdsa-sha2-nistp256"
    package static let p256Curve = "nistp256"

    /// The key type name, for signing keys only.
    package static func keyType(_ algorithm: KeyAlgorithm) -> String? {
        switch algorithm {
        case .ed25519: ed25519Type
        case .p256: p256Type
        case .x25519, .p256Agreement: nil
        }
    }

    /// `string type ‖ string key` (Ed25519) or `string type ‖ string curve ‖
    /// string Q` (P-256); `nil` for key-agreement keys.
    package static func publicKeyBlob(_ key: PublicKey) -> [UInt8]? {
        guard let type = keyType(key.algorithm) else { return nil }
        var writer = ByteWriter()
        writer.field(type)
        if key.algorithm == .p256 { writer.field(p256Curve) }
        writer.field(key.rawRepresentation)
        return writer.bytes
    }

    /// An SSH mpint (RFC 4251 §5: big-endian, a 0x00 in front when the top
    /// bit is set) that must be a non-negative number of at most 32 bytes,
    /// as 32 bytes: a P-256 scalar, or an ECDSA signature's r or s. `nil`
    /// for a negative or longer one. One reader for the key file, the
    /// agent's add-identity message and session-bind signatures.
    package static func fixed32(mpint: [UInt8]) -> [UInt8]? {
        guard mpint.first.map({ $0 & 0x80 == 0 }) ?? true else { return nil }
        let digits = Array(mpint.drop(while: { $0 == 0 }))
        guard digits.count <= 32 else { return nil }
        return Array(repeating: 0, count: 32 - digits.count) + digits
    }

    /// What an OpenSSH private key file holds.
    package struct PrivateKeyFile {
        var algorithm: KeyAlgorithm
        /// Ed25519: the 32-byte seed; P-256: the 32-byte scalar.
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
            case p256Type:
                guard String(decoding: try section.field(), as: UTF8.self) == p256Curve else { throw ByteReaderError() }
                let publicKey = try section.field()
                guard publicKey.count == 65, let scalar = fixed32(mpint: try section.field()) else { throw ByteReaderError() }
                file = PrivateKeyFile(algorithm: .p256, privateKey: scalar, publicKey: publicKey, comment: "")
            default:
                throw VaultError(.invalidArgument, "OpenSSH \(type) keys are not supported; Sesame keeps ssh-ed25519 and ecdsa-sha2-nistp256 keys")
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
