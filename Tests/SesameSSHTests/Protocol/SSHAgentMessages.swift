import Crypto
@testable import Sesame
@testable import SesameSSH

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
            + [255] + string("sk-provider@openssh.com") + string(string("constraint data"))
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

    /// What OpenSSH 9.2's `ssh-add KEY` sent to a fake agent
    /// (Fuzz/make-agent-corpus.py, Fuzz/Corpus/agent/real-17-1): a throw-away
    /// Ed25519 key, comment "corpus ed25519".
    static let realSSHAddEd25519 = hex("110000000b7373682d65643235353139000000204e97523c71cc0b17d14c3df02c2761260f7ab5b751b2b9585ecfca6fb370587800000040733b0f019b2b35abd6f9b3a663841c39089d382c8ac8ac92d6b49980854078024e97523c71cc0b17d14c3df02c2761260f7ab5b751b2b9585ecfca6fb37058780000000e636f727075732065643235353139")

    /// What `ssh-add -t 3600 -c KEY` sent (Fuzz/Corpus/agent/real-25-1): a
    /// throw-away P-256 key, comment "corpus ecdsa", lifetime and confirm.
    static let realSSHAddP256Constrained = hex("190000001365636473612d736861322d6e69737470323536000000086e69737470323536000000410469496428ffd44ddf47ff3411629cf5c78510f0286a4e972b8ed0099a8e84a6571813f3290baf58447f45158c2ee9d3f4a2831908478e283d6a5fe67d7f2a92740000002078572c6d1234ed4add1efea93c9a35b151ad737b85701e1e403accd07fa19e270000000c636f727075732065636473610100000e1002")

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [], digits = Array(text.utf8)
        while digits.count >= 2 {
            bytes.append(UInt8(String(decoding: digits[..<2], as: UTF8.self), radix: 16) ?? 0)
            digits.removeFirst(2)
        }
        return bytes
    }
}
