import Crypto
import Foundation
@testable import Sesame
import Testing
@testable import SesameSSH

private typealias M = SSHAgentMessages
private typealias T = SSHAgentDestinationConstraintTests

/// `restrict-destination-v00@openssh.com` (`ssh-add -h`, SPEC D8)
/// in message 25, laid out by hand from OpenSSH 9.2's `parse_dest_constraint`
/// and taken from a real `ssh-add -h`.
@Suite("SSHAgentRequest: ssh-add -h destination constraints")
struct SSHAgentDestinationConstraintTests {
    static let hostA = M.string("ssh-ed25519") + M.string(Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation))
    static let hostB = M.string("ssh-ed25519") + M.string(Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation))

    static func hop(user: String = "", host: String = "", keys: [([UInt8], UInt8)] = [], extensions: [UInt8] = []) -> [UInt8] {
        M.string(user) + M.string(host) + M.string(extensions) + keys.flatMap { M.string($0.0) + [$0.1] }
    }

    static func constraint(from: [UInt8] = SSHAgentDestinationConstraintTests.hop(), to: [UInt8], extensions: [UInt8] = []) -> [UInt8] {
        M.string(M.string(from) + M.string(to) + M.string(extensions))
    }

    static func add(_ constraints: [UInt8]...) -> [UInt8] {
        M.addP256Base + [255] + M.string("restrict-destination-v00@openssh.com") + M.string(Array(constraints.joined()))
    }

    static func destinations(_ body: [UInt8]) throws -> [KeyDestination] {
        guard case .addIdentity(_, _, let constraints) = try SSHAgentRequest.parse(body),
              case .destinations(let list)? = constraints.first else { throw SSHAgentProtocolError.malformed("no destinations") }
        return list
    }

    /// What OpenSSH 9.2's `ssh-add -H known_hosts -h example.test -h
    /// user@example.test` sent (Fuzz/Corpus/agent/real-25-2).
    static let realSSHAddH = M.hex("190000000b7373682d656432353531390000002020089ac57debe861a5a3c6fb7e86f637d4fd2365e9daa1cda46f058710e58c4100000040e1ff9d15ce8ab2d5944a677fb2f597efe9ed7eb04dab3f663caf5d27cb3da57820089ac57debe861a5a3c6fb7e86f637d4fd2365e9daa1cda46f058710e58c410000000e636f727075732065643235353139ff0000002472657374726963742d64657374696e6174696f6e2d763030406f70656e7373682e636f6d000000dc000000680000000c00000000000000000000000000000050000000000000000c6578616d706c652e7465737400000000000000330000000b7373682d65643235353139000000207412160620147e14cbb80ad2feae211a263bcf2ef4c9d309619d29213837d9fc00000000000000006c0000000c0000000000000000000000000000005400000004757365720000000c6578616d706c652e7465737400000000000000330000000b7373682d65643235353139000000207412160620147e14cbb80ad2feae211a263bcf2ef4c9d309619d29213837d9fc0000000000")

    @Test("D8: the body OpenSSH's real ssh-add -h sent parses: two destinations from the origin to example.test, the second for user 'user'")
    func realSSHAdd() throws {
        let list = try Self.destinations(Self.realSSHAddH)
        let hostKey = M.hex("0000000b7373682d65643235353139000000207412160620147e14cbb80ad2feae211a263bcf2ef4c9d309619d29213837d9fc")
        let to = KeyDestination.Hop(hostname: "example.test", hostKeys: [KeyDestination.HostKey(blob: hostKey)])
        var forUser = to
        forUser.user = "user"
        #expect(list == [KeyDestination(to: to), KeyDestination(to: forUser)])
    }

    @Test("D8: a hop from a host (hosta>hostb), a user pattern and a CA key are kept as sent, beside lifetime and confirm")
    func hopsAndFlags() throws {
        let body = Self.add(Self.constraint(to: Self.hop(host: "hosta", keys: [(Self.hostA, 0)])),
                            Self.constraint(from: Self.hop(host: "hosta", keys: [(Self.hostA, 0)]),
                                            to: Self.hop(user: "deploy*", host: "hostb", keys: [(Self.hostB, 0), (Self.hostA, 1)]))) + [2]
        guard case .addIdentity(_, _, let constraints) = try SSHAgentRequest.parse(body) else { Issue.record("25"); return }
        let a = KeyDestination.Hop(hostname: "hosta", hostKeys: [.init(blob: Self.hostA)])
        let b = KeyDestination.Hop(user: "deploy*", hostname: "hostb", hostKeys: [.init(blob: Self.hostB), .init(blob: Self.hostA, isCertificateAuthority: true)])
        #expect(constraints == [.destinations([KeyDestination(to: a), KeyDestination(from: a, to: b)]), .confirm])
    }

    /// Bodies OpenSSH's agent refuses (and one it would take), each with why.
    static let malformed: [(String, [UInt8])] = [
        ("from hop with a name but no key", T.constraint(from: T.hop(host: "hosta"), to: T.hop(host: "b", keys: [(T.hostB, 0)]))),
        ("from hop with a key but no name", T.constraint(from: T.hop(keys: [(T.hostA, 0)]), to: T.hop(host: "b", keys: [(T.hostB, 0)]))),
        ("from hop with a user", T.constraint(from: T.hop(user: "u"), to: T.hop(host: "b", keys: [(T.hostB, 0)]))),
        ("to hop without keys", T.constraint(to: T.hop(host: "b"))),
        ("to hop without a name", T.constraint(to: T.hop(keys: [(T.hostB, 0)]))),
        ("hop extensions", T.constraint(to: T.hop(host: "b", keys: [(T.hostB, 0)], extensions: [1]))),
        ("constraint extensions", T.constraint(to: T.hop(host: "b", keys: [(T.hostB, 0)]), extensions: [1])),
        ("user pattern of 257 bytes", T.constraint(to: T.hop(user: String(repeating: "u", count: 257), host: "b", keys: [(T.hostB, 0)]))),
        ("NUL in a hostname", T.constraint(to: T.hop(host: "b\u{0}c", keys: [(T.hostB, 0)]))),
        ("a host key without a type", T.constraint(to: T.hop(host: "b", keys: [(M.string(""), 0)]))),
        ("a host key without its CA byte", T.constraint(to: M.string("") + M.string("b") + M.string("") + M.string(T.hostB))),
        ("trailing bytes in a constraint", M.string(M.string(T.hop()) + M.string(T.hop(host: "b", keys: [(T.hostB, 0)])) + M.string("") + [0])),
        ("an empty list (OpenSSH would add the key unrestricted; refused here as surely a mistake)", []),
    ]

    @Test("D8: inconsistent or unknown contents refuse the key, as OpenSSH's agent does", arguments: T.malformed)
    func refused(name: String, constraint: [UInt8]) {
        #expect(throws: SSHAgentProtocolError.self, "\(name)") { try SSHAgentRequest.parse(Self.add(constraint)) }
    }

    @Test("D8: the extension twice, or more than 1024 destinations, is refused")
    func limits() throws {
        let one = Self.constraint(to: Self.hop(host: "b", keys: [(Self.hostB, 0)]))
        #expect(try Self.destinations(Self.add(Array(repeating: one, count: 1024).flatMap { $0 })).count == 1024)
        #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse(Self.add(Array(repeating: one, count: 1025).flatMap { $0 })) }
        let ext = [255] + M.string("restrict-destination-v00@openssh.com") + M.string(one)
        #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse(M.addP256Base + ext + ext) }
    }

    @Test("D8: the real ssh-add -h body cut at every length throws or parses, never traps; no cut inside the constraint parses")
    func truncation() {
        let body = Self.realSSHAddH
        let constraintStart = body.count - (1 + 4 + 36 + 4 + 0xdc)
        for length in 0..<body.count {
            let parsed = try? SSHAgentRequest.parse(Array(body.prefix(length)))
            if length > constraintStart { #expect(parsed == nil, "cut at \(length)") }
        }
    }
    @Test("D8: the fuzz corpus's destination seeds parse as their names say: origin, hop and the real ssh-add -h 'a>b' with destinations, the others refused")
    func corpusSeeds() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Fuzz/Corpus/agent").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("-dest") }.sorted()
        #expect(names.count == 10, "\(names)")
        for name in names {
            let body = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            if ["25-dest-origin", "25-dest-hop", "real-25-dest-hop"].contains(name) {
                #expect(try !Self.destinations(body).isEmpty, "\(name)")
            } else {
                #expect(throws: SSHAgentProtocolError.self, "\(name)") { try SSHAgentRequest.parse(body) }
            }
        }
    }
}
