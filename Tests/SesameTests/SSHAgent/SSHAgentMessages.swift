import Crypto
@testable import Sesame

/// Agent message bodies built by hand from draft-miller-ssh-agent's layouts,
/// independently of the parser.
enum SSHAgentMessages {
    static func string(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let count = UInt32(bytes.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) } + Array(bytes)
    }

    static func string(_ text: String) -> [UInt8] { string(Array(text.utf8)) }

    static func u32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// RFC 4251 §5 for a non-negative big-endian number.
    static func mpint(_ magnitude: [UInt8]) -> [UInt8] {
        let digits = Array(magnitude.drop(while: { $0 == 0 }))
        return string(digits.first.map { $0 >= 0x80 } == true ? [0] + digits : digits)
    }

    static func ed25519Contents(seed: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        string("ssh-ed25519") + string(publicKey) + string(seed + publicKey)
    }

    static func p256Contents(scalar: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        string("ecdsa-sha2-nistp256") + string("nistp256") + string(publicKey) + mpint(scalar)
    }

    static let ed25519 = Curve25519.Signing.PrivateKey()
    static let p256 = P256.Signing.PrivateKey()

    static var addEd25519: [UInt8] {
        [17] + ed25519Contents(seed: Array(ed25519.rawRepresentation), publicKey: Array(ed25519.publicKey.rawRepresentation)) + string("me@host")
    }

    /// Message 25 with no constraints yet.
    static var addP256Base: [UInt8] {
        [25] + p256Contents(scalar: Array(p256.rawRepresentation), publicKey: Array(p256.publicKey.x963Representation)) + string("ecdsa")
    }

    static var addP256Constrained: [UInt8] {
        addP256Base + [1] + u32(3600) + [2]
            + [255] + string("restrict-destination-v00@openssh.com") + string(string("constraint data"))
            + [2]
    }

    static let hostKey = string("ssh-ed25519") + string([UInt8](repeating: 9, count: 32))

    /// One valid body per message type (the unknown extension, whose
    /// contents are not read, aside).
    static var valid: [(String, [UInt8])] {
        [
            ("request identities", [11]),
            ("sign", [13] + string(hostKey) + string("data to sign") + u32(4)),
            ("add ed25519", addEd25519),
            ("add p256 constrained", addP256Constrained),
            ("remove", [18] + string(hostKey)),
            ("remove all", [19]),
            ("lock", [22] + string("hunter2")),
            ("unlock", [23] + string("hunter2")),
            ("session bind", [27] + string("session-bind@openssh.com") + string(hostKey) + string([UInt8](repeating: 1, count: 32))
                + string([UInt8](repeating: 2, count: 83)) + [1]),
        ]
    }
}
