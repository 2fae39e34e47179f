import Sesame
/// `ByteReader` for agent messages: names the field that was short, and
/// parses the key and constraint layouts of `ssh-add`'s messages.
struct SSHAgentReader {
    private var reader: ByteReader

    init(_ bytes: [UInt8]) { reader = ByteReader(bytes) }

    var isAtEnd: Bool { reader.isAtEnd }

    mutating func u8(_ what: String) throws(SSHAgentProtocolError) -> UInt8 {
        do { return try reader.u8() } catch { throw .malformed("truncated \(what)") }
    }

    mutating func u32(_ what: String) throws(SSHAgentProtocolError) -> UInt32 {
        do { return try reader.u32() } catch { throw .malformed("truncated \(what)") }
    }

    /// An SSH `string`: its length is checked against the remaining input
    /// before anything is allocated (`ByteReader.raw(_:)`).
    mutating func string(_ what: String) throws(SSHAgentProtocolError) -> [UInt8] {
        do { return try reader.field() } catch { throw .malformed("truncated \(what)") }
    }

    /// A `string` holding a secret, copied into `SecretBytes` and wiped.
    mutating func secret(_ what: String) throws(SSHAgentProtocolError) -> SecretBytes {
        var bytes = try string(what)
        defer { wipe(&bytes) }
        return SecretBytes(bytes)
    }

    /// Refuses trailing bytes.
    func finish() throws(SSHAgentProtocolError) {
        guard reader.isAtEnd else { throw .malformed("trailing bytes after the message") }
    }

    /// `string type ‖ key contents ‖ string comment` of messages 17 and 25;
    /// `nil` for a key type other than `ssh-ed25519` and `ecdsa-sha2-nistp256`
    /// (the rest is then not read).
    ///
    /// Ed25519: `string A(32) ‖ string k‖A(64)`. P-256: `string "nistp256" ‖
    /// string Q(65) ‖ mpint d`.
    mutating func privateKey() throws(SSHAgentProtocolError) -> (SSHAgentKey, String)? {
        let type = try string("key type")
        let key: SSHAgentKey
        switch type {
        case Array(SSHKeyEncoding.ed25519Type.utf8):
            let publicKey = try string("Ed25519 public key")
            var secret = try string("Ed25519 private key")
            defer { wipe(&secret) }
            guard publicKey.count == 32, secret.count == 64 else { throw .malformed("an Ed25519 key is 32 and 64 bytes") }
            guard ConstantTime.equals(secret[32...], publicKey) else { throw .malformed("the Ed25519 private key's public half differs") }
            var seed = Array(secret[..<32])
            defer { wipe(&seed) }
            key = try SSHAgentKey(algorithm: .ed25519, privateKey: seed, publicKey: publicKey)
        case Array(SSHKeyEncoding.p256Type.utf8):
            guard try string("curve") == Array(SSHKeyEncoding.p256Curve.utf8) else { throw .malformed("an ecdsa-sha2-nistp256 key on another curve") }
            let publicKey = try string("P-256 public key")
            var mpint = try string("P-256 private key")
            defer { wipe(&mpint) }
            guard publicKey.count == 65, !mpint.isEmpty else { throw .malformed("invalid P-256 key sizes") }
            guard var padded = SSHKeyEncoding.fixed32(mpint: mpint) else { throw .malformed("a negative P-256 scalar, or one longer than 32 bytes") }
            defer { wipe(&padded) }
            key = try SSHAgentKey(algorithm: .p256, privateKey: padded, publicKey: publicKey)
        default:
            return nil
        }
        return (key, String(decoding: try string("comment"), as: UTF8.self))
    }

    /// The constraints of message 25, up to the end of the message.
    ///
    /// Known extensions' data is skipped by its layout, so constraints may
    /// follow them; an unknown extension's data is the rest of the message.
    mutating func constraints() throws(SSHAgentProtocolError) -> [SSHAgentConstraint] {
        var constraints: [SSHAgentConstraint] = []
        while !isAtEnd {
            switch try u8("constraint type") {
            case 1:
                constraints.append(.lifetime(seconds: try u32("lifetime")))
            case 2:
                constraints.append(.confirm)
            case 255:
                let name = String(decoding: try string("constraint extension name"), as: UTF8.self)
                switch name {
                case "restrict-destination-v00@openssh.com", "sk-provider@openssh.com":
                    _ = try string("\(name) data")
                case "associated-certs-v00@openssh.com":
                    _ = try u8("\(name) flag")
                    _ = try string("\(name) data")
                default:
                    _ = reader.rest()
                }
                constraints.append(.extension(name: name))
            case let other:
                throw .malformed("unknown constraint type \(other)")
            }
        }
        return constraints
    }
}
