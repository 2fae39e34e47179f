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

    /// What an add message carried: a key Sesame keeps, or why not.
    enum ParsedKey {
        case key(SSHAgentKey, comment: String)
        case unsupported(reason: String)
    }

    /// `string type ‖ key contents ‖ string comment` of messages 17 and 25;
    /// for a key type Sesame does not keep, the reason (the rest is then
    /// not read).
    ///
    /// Ed25519: `string A(32) ‖ string k‖A(64)`. ECDSA: `string curve ‖
    /// string Q ‖ mpint d`. RSA: `mpint n ‖ mpint e ‖ mpint d ‖ mpint iqmp ‖
    /// mpint p ‖ mpint q`.
    mutating func privateKey() throws(SSHAgentProtocolError) -> ParsedKey {
        let typeBytes = try string("key type")
        let type = String(decoding: typeBytes, as: UTF8.self)
        let key: SSHAgentKey
        if type == SSHKeyEncoding.ed25519Type {
            let publicKey = try string("Ed25519 public key")
            var secret = try string("Ed25519 private key")
            defer { wipe(&secret) }
            guard publicKey.count == 32, secret.count == 64 else { throw .malformed("an Ed25519 key is 32 and 64 bytes") }
            guard ConstantTime.equals(secret[32...], publicKey) else { throw .malformed("the Ed25519 private key's public half differs") }
            var seed = Array(secret[..<32])
            defer { wipe(&seed) }
            key = try SSHAgentKey(algorithm: .ed25519, privateKey: seed, publicKey: publicKey)
        } else if let algorithm = SSHKeyEncoding.ecdsaAlgorithm(type: type) {
            guard try string("curve") == Array((SSHKeyEncoding.curveName(algorithm) ?? "").utf8) else { throw .malformed("an \(type) key on another curve") }
            let publicKey = try string("\(algorithm) public key")
            var mpint = try string("\(algorithm) private key")
            defer { wipe(&mpint) }
            guard !mpint.isEmpty else { throw .malformed("an empty \(algorithm) scalar") }
            guard var padded = SSHKeyEncoding.fixed(mpint: mpint, count: SSHKeyEncoding.scalarLength(algorithm)) else {
                throw .malformed("a negative \(algorithm) scalar, or one too long")
            }
            defer { wipe(&padded) }
            key = try SSHAgentKey(algorithm: algorithm, privateKey: padded, publicKey: publicKey)
        } else if type == SSHKeyEncoding.rsaType {
            var numbers: [[UInt8]] = []
            defer { for index in numbers.indices { wipe(&numbers[index]) } }
            for name in ["n", "e", "d", "iqmp", "p", "q"] { numbers.append(try string("RSA \(name)")) }
            let bits = Self.bitLength(numbers[0])
            guard KeyAlgorithm.rsa(bits: bits) != nil else {
                return .unsupported(reason: "a \(bits)-bit RSA key; Sesame keeps 2048, 3072 and 4096-bit RSA keys")
            }
            guard var made = try? SSHKeyEncoding.rsaPrivateKey(n: numbers[0], e: numbers[1], d: numbers[2], p: numbers[4], q: numbers[5]) else {
                throw .malformed("the RSA key's numbers do not make a valid key")
            }
            defer { wipe(&made.stored) }
            key = try SSHAgentKey(algorithm: made.algorithm, privateKey: made.stored, publicKey: made.publicKey)
        } else {
            return .unsupported(reason: SSHKeyEncoding.unsupportedTypeReason(type))
        }
        return .key(key, comment: String(decoding: try string("comment"), as: UTF8.self))
    }

    /// The number of significant bits of an unsigned mpint.
    static func bitLength(_ mpint: [UInt8]) -> Int {
        let digits = mpint.drop(while: { $0 == 0 })
        guard let first = digits.first else { return 0 }
        return (digits.count - 1) * 8 + (8 - first.leadingZeroBitCount)
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
                case "restrict-destination-v00@openssh.com":
                    guard !constraints.contains(where: { if case .destinations = $0 { true } else { false } }) else {
                        throw .malformed("\(name) given twice")
                    }
                    constraints.append(.destinations(try destinations()))
                    continue
                case "sk-provider@openssh.com":
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
