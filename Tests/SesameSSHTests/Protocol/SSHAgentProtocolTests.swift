import Crypto
import Foundation
@testable import Sesame
import Testing
@testable import SesameSSH

private typealias M = SSHAgentMessages

@Suite("SPEC D7: the ssh-agent wire codec")
struct SSHAgentProtocolTests {
    @Test("SPEC D7: identities, sign, remove and remove-all parse as the draft lays them out")
    func simpleMessages() throws {
        guard case .requestIdentities = try SSHAgentRequest.parse([11]) else { Issue.record("11"); return }
        guard case .removeAllIdentities = try SSHAgentRequest.parse([19]) else { Issue.record("19"); return }
        guard case .sign(let blob, let data, let flags) = try SSHAgentRequest.parse(M.valid[1].1) else { Issue.record("13"); return }
        #expect(blob == M.hostKey && data == Array("data to sign".utf8) && flags == 4)
        guard case .removeIdentity(let removed) = try SSHAgentRequest.parse(M.valid[4].1) else { Issue.record("18"); return }
        #expect(removed == M.hostKey)
    }

    @Test("SPEC D7: lock and unlock carry the passphrase as SecretBytes")
    func lockUnlock() throws {
        guard case .lock(let locked) = try SSHAgentRequest.parse([22] + M.string("hunter2")),
              case .unlock(let unlocked) = try SSHAgentRequest.parse([23] + M.string("hunter2")) else { Issue.record("22/23"); return }
        #expect(locked.constantTimeEquals(SecretBytes(utf8: "hunter2")) && unlocked.constantTimeEquals(locked))
        guard case .lock(let empty) = try SSHAgentRequest.parse([22] + M.string("")) else { Issue.record("empty"); return }
        #expect(empty.isEmpty)
    }

    @Test("SPEC D7: an Ed25519 add (17) keeps the 32-byte seed and derives the same public key")
    func addEd25519() throws {
        guard case .addIdentity(let key, let comment, let constraints) = try SSHAgentRequest.parse(M.addEd25519) else { Issue.record("17"); return }
        #expect(key.algorithm == .ed25519 && comment == "me@host" && constraints.isEmpty)
        #expect(key.privateKey.constantTimeEquals(SecretBytes(M.ed25519.rawRepresentation)))
        #expect(key.publicKey.rawRepresentation == Array(M.ed25519.publicKey.rawRepresentation))
    }

    @Test("SPEC D7: a P-256 add-constrained (25) reads the mpint scalar and every constraint, reading past known extensions' data")
    func addP256Constrained() throws {
        guard case .addIdentity(let key, let comment, let constraints) = try SSHAgentRequest.parse(M.addP256Constrained) else { Issue.record("25"); return }
        #expect(key.algorithm == .p256 && comment == "ecdsa")
        #expect(key.privateKey.constantTimeEquals(SecretBytes(M.p256.rawRepresentation)))
        #expect(key.publicKey.rawRepresentation == Array(M.p256.publicKey.x963Representation))
        #expect(constraints == [.lifetime(seconds: 3600), .confirm, .extension(name: "sk-provider@openssh.com"), .confirm])
        // An unknown extension's data is the rest of the message.
        let base = M.addP256Base
        guard case .addIdentity(_, _, let rest) = try SSHAgentRequest.parse(base + [255] + M.string("x@example.com") + [1, 2, 3, 255]) else { Issue.record("ext"); return }
        #expect(rest == [.extension(name: "x@example.com")])
        #expect(throws: SSHAgentProtocolError.malformed("unknown constraint type 3")) { try SSHAgentRequest.parse(base + [3] + M.u32(1)) }
    }

    @Test("SPEC D7: the bodies OpenSSH's real ssh-add sent (17 Ed25519; 25 P-256 with -t 3600 -c) parse, keys consistent")
    func realSSHAdd() throws {
        guard case .addIdentity(let ed, let edComment, let edConstraints) = try SSHAgentRequest.parse(M.realSSHAddEd25519) else { Issue.record("17"); return }
        #expect(ed.algorithm == .ed25519 && edComment == "corpus ed25519" && edConstraints.isEmpty)
        #expect(ed.publicKey.rawRepresentation == Array(M.realSSHAddEd25519[20..<52]))
        guard case .addIdentity(let p256, let comment, let constraints) = try SSHAgentRequest.parse(M.realSSHAddP256Constrained) else { Issue.record("25"); return }
        #expect(p256.algorithm == .p256 && comment == "corpus ecdsa" && constraints == [.lifetime(seconds: 3600), .confirm])
        for body in [M.realSSHAddEd25519, M.realSSHAddP256Constrained] {
            for length in 1..<body.count - (body[0] == 25 ? 6 : 0) {
                #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse(Array(body.prefix(length))) }
            }
        }
    }

    @Test("SPEC D7: a short P-256 scalar is left-padded; a negative, long or wrong scalar, or a wrong curve, is refused")
    func p256Scalars() throws {
        var scalar = [UInt8](repeating: 0, count: 32)
        scalar[31] = 5
        let key = try P256.Signing.PrivateKey(rawRepresentation: scalar)
        let q = Array(key.publicKey.x963Representation)
        guard case .addIdentity(let parsed, _, _) = try SSHAgentRequest.parse([17] + M.p256Contents(scalar: scalar, publicKey: q) + M.string("")) else { Issue.record("pad"); return }
        #expect(parsed.privateKey.constantTimeEquals(SecretBytes(scalar)))
        let body = { (d: [UInt8]) in [17] + M.string("ecdsa-sha2-nistp256") + M.string("nistp256") + M.string(q) + M.string(d) + M.string("") }
        for bad in [[0x85], [0, 0, 0, 0] + [UInt8](repeating: 1, count: 33), [], [6]] as [[UInt8]] {
            #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse(body(bad)) }
        }
        let otherCurve = [17] + M.string("ecdsa-sha2-nistp256") + M.string("nistp384") + M.string(q) + M.mpint(scalar) + M.string("")
        #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse(otherCurve) }
    }

    @Test("SPEC D7: an Ed25519 add whose public half or public key differs is refused")
    func ed25519Mismatch() {
        let seed = Array(M.ed25519.rawRepresentation), pub = Array(M.ed25519.publicKey.rawRepresentation)
        let other = Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
        for body in [[17] + M.string("ssh-ed25519") + M.string(pub) + M.string(seed + other) + M.string(""),
                     [17] + M.string("ssh-ed25519") + M.string(other) + M.string(seed + other) + M.string(""),
                     [17] + M.string("ssh-ed25519") + M.string(pub) + M.string(seed) + M.string("")] {
            #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse(body) }
        }
    }

    @Test("SPEC D7: smartcard and unknown types are unsupported; an add of a key type Sesame does not keep says why")
    func unsupported() throws {
        for (body, type) in [([20] + M.string("reader"), 20), ([21], 21), ([24], 24), ([26], 26), ([1], 1), ([255, 1, 2], 255)] as [([UInt8], UInt8)] {
            guard case .unsupported(let parsedType) = try SSHAgentRequest.parse(body) else { Issue.record("\(type)"); continue }
            #expect(parsedType == type)
        }
        let sk = M.string("sk-ecdsa-sha2-nistp256@openssh.com") + M.string("nistp256")
        let dsa = M.string("ssh-dss") + M.mpint([1])
        let cert = M.string("ssh-ed25519-cert-v01@openssh.com") + M.string("x")
        let small = M.string("ssh-rsa") + [M.mpint([0xC5] + [UInt8](repeating: 1, count: 127)), M.mpint([1, 0, 1])].joined() + M.mpint([1]) + M.mpint([1]) + M.mpint([1]) + M.mpint([1])
        for (body, type, reason) in [([17] + sk, 17, "FIDO security key"), ([25] + sk + [2], 25, "FIDO security key"), ([17] + dsa, 17, "DSA"),
                                     ([17] + cert, 17, "certificate"), ([17] + small, 17, "1024-bit RSA key")] as [([UInt8], UInt8, String)] {
            guard case .unsupportedKey(let parsedType, let why) = try SSHAgentRequest.parse(body) else { Issue.record("\(reason)"); continue }
            #expect(parsedType == type && why.contains(reason), "\(why)")
        }
    }

    @Test("SPEC D7: session-bind@openssh.com and other extensions (27)")
    func extensions() throws {
        guard case .sessionBind(let host, let session, let signature, let forwarding) = try SSHAgentRequest.parse(M.valid[8].1) else { Issue.record("bind"); return }
        #expect(host == M.hostKey && session == [UInt8](repeating: 1, count: 32) && signature == [UInt8](repeating: 2, count: 83) && forwarding)
        guard case .sessionBind(_, _, _, false) = try SSHAgentRequest.parse(Array(M.valid[8].1.dropLast()) + [0]) else { Issue.record("fwd"); return }
        guard case .unknownExtension(let name) = try SSHAgentRequest.parse([27] + M.string("query") + [1, 2, 3]) else { Issue.record("query"); return }
        #expect(name == "query")
    }

    @Test("SPEC D7: truncation at every length of every valid message throws, never traps", arguments: M.valid.map(\.0))
    func truncation(name: String) throws {
        let body = try #require(M.valid.first { $0.0 == name }).1
        _ = try SSHAgentRequest.parse(body)
        for length in 0..<body.count where !(body[0] == 25 && length > 0 && isConstraintBoundary(length)) {
            #expect(throws: SSHAgentProtocolError.self, "\(name) cut at \(length)") { try SSHAgentRequest.parse(Array(body.prefix(length))) }
        }
    }

    /// Cuts of message 25 between constraints leave a valid, shorter message.
    private func isConstraintBoundary(_ length: Int) -> Bool {
        let total = M.addP256Constrained.count
        let ext = 1 + 4 + 23 + 4 + 4 + 15
        return [total - 1 - ext - 1 - 5, total - 1 - ext - 1, total - 1 - ext, total - 1].contains(length)
    }

    @Test("SPEC D7: trailing bytes after any complete message are malformed", arguments: M.valid.map(\.0))
    func trailing(name: String) throws {
        let body = try #require(M.valid.first { $0.0 == name }).1
        #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse(body + [0]) }
        if body[0] != 25 {
            #expect(throws: SSHAgentProtocolError.malformed("trailing bytes after the message")) { try SSHAgentRequest.parse(body + [7, 7]) }
        }
    }

    @Test("SPEC D7: empty, oversized and lying lengths are refused before any allocation")
    func lengths() throws {
        #expect(throws: SSHAgentProtocolError.empty) { try SSHAgentRequest.parse([]) }
        #expect(throws: SSHAgentProtocolError.tooLong(256 * 1024 + 1)) { try SSHAgentRequest.parse([UInt8](repeating: 11, count: 256 * 1024 + 1)) }
        #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse([13, 0xFF, 0xFF, 0xFF, 0xFF, 1]) }
        #expect(throws: SSHAgentProtocolError.self) { try SSHAgentRequest.parse([22, 0x7F, 0xFF, 0xFF, 0xFF]) }
        #expect(try SSHAgentFrame.bodyLength(header: [0, 4, 0, 0]) == 256 * 1024)
        #expect(try SSHAgentFrame.bodyLength(header: [0, 0, 0, 1]) == 1)
        #expect(throws: SSHAgentProtocolError.tooLong(256 * 1024 + 1)) { try SSHAgentFrame.bodyLength(header: [0, 4, 0, 1]) }
        #expect(throws: SSHAgentProtocolError.tooLong(Int(UInt32.max))) { try SSHAgentFrame.bodyLength(header: [0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: SSHAgentProtocolError.empty) { try SSHAgentFrame.bodyLength(header: [0, 0, 0, 0]) }
        #expect(throws: SSHAgentProtocolError.self) { try SSHAgentFrame.bodyLength(header: [0, 0, 1]) }
    }

    @Test("SPEC D7: response frames are length ‖ type ‖ body")
    func responses() {
        #expect(SSHAgentResponse.success.frame == [0, 0, 0, 1, 6])
        #expect(SSHAgentResponse.failure.frame == [0, 0, 0, 1, 5])
        #expect(SSHAgentResponse.signature([1, 2]).frame == [0, 0, 0, 7, 14, 0, 0, 0, 2, 1, 2])
        let identities = SSHAgentResponse.identities([SSHAgentIdentity(keyBlob: [9], comment: "a"), SSHAgentIdentity(keyBlob: [], comment: "")]).frame
        let body: [UInt8] = [12] + M.u32(2) + M.string([9]) + M.string("a") + M.string([]) + M.string("")
        #expect(identities == M.u32(UInt32(body.count)) + body)
        #expect(SSHAgentResponse.identities([]).frame == [0, 0, 0, 5, 12, 0, 0, 0, 0])
    }
}
