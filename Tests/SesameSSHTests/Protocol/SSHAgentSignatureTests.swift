import Crypto
import Foundation
@testable import Sesame
import Testing
@testable import SesameSSH
import SesameTesting

private typealias M = SSHAgentMessages

@Suite("SPEC D7: SSH signatures and key blobs for the agent")
struct SSHAgentSignatureTests {
    @Test("SPEC D7: Ed25519 signatures are string type ‖ string(64 bytes) and verify")
    func ed25519() throws {
        let key = Curve25519.Signing.PrivateKey()
        let raw = Array(try key.signature(for: Array("hello".utf8)))
        let encoded = try SSHSignature.encode(algorithm: .ed25519, rawSignature: raw)
        #expect(encoded == M.string("ssh-ed25519") + M.string(raw))
        #expect(key.publicKey.isValidSignature(Array(encoded.suffix(64)), for: Array("hello".utf8)))
    }

    @Test("SPEC D7: ECDSA signatures carry r and s as mpints that, decoded by hand, verify with swift-crypto")
    func p256() throws {
        let key = P256.Signing.PrivateKey()
        let message = Array("sign me".utf8)
        var sawTopBit = false
        for _ in 0..<64 {
            let raw = Array(try key.signature(for: message).rawRepresentation)
            let encoded = try SSHSignature.encode(algorithm: .p256, rawSignature: raw)
            let prefix = M.string("ecdsa-sha2-nistp256")
            #expect(Array(encoded.prefix(prefix.count)) == prefix)
            var rest = Array(encoded.dropFirst(prefix.count))
            let inner = try #require(Self.take(&rest))
            #expect(rest.isEmpty)
            var fields = inner
            let r = try #require(Self.take(&fields)), s = try #require(Self.take(&fields))
            #expect(fields.isEmpty)
            for mpint in [r, s] {
                // Minimal and non-negative: no needless leading zero, top bit clear.
                #expect(mpint.first.map { $0 < 0x80 } ?? true)
                if mpint.first == 0 { #expect(mpint.count > 1 && mpint[1] >= 0x80); sawTopBit = true }
            }
            let pad = { (n: [UInt8]) -> [UInt8] in let digits = Array(n.drop(while: { $0 == 0 })); return [UInt8](repeating: 0, count: 32 - digits.count) + digits }
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: pad(r) + pad(s))
            #expect(key.publicKey.isValidSignature(signature, for: message))
        }
        #expect(sawTopBit, "64 signatures include a half with its top bit set")
        #expect(SSHSignature.mpint([0, 0, 0x7F][...]) == [0x7F] && SSHSignature.mpint([0, 0x80][...]) == [0, 0x80] && SSHSignature.mpint([0, 0][...]).isEmpty)
    }

    @Test("SPEC D7: key-agreement algorithms and wrong lengths are refused")
    func refusals() {
        for (algorithm, count) in [(KeyAlgorithm.x25519, 64), (.p256Agreement, 64), (.ed25519, 63), (.p256, 72)] {
            #expect(throws: VaultError.self) { try SSHSignature.encode(algorithm: algorithm, rawSignature: [UInt8](repeating: 1, count: count)) }
        }
    }

    @Test("SPEC D7: ssh-keygen's .pub blobs name the key in its private file, and an add built from that file parses to the same key", arguments: [["-t", "ed25519"], ["-t", "ecdsa", "-b", "256"]])
    func sshKeygen(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/key"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        process.arguments = arguments + ["-N", "", "-C", "test", "-q", "-f", path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let line = try String(contentsOfFile: path + ".pub", encoding: .utf8).split(separator: " ")
        let blob = Array(try #require(Data(base64Encoded: String(line[1]))))
        let key = try #require(SSHSignature.publicKey(fromBlob: blob))
        #expect(SSHKeyEncoding.publicKeyBlob(key) == blob)
        let file = try SSHKeyEncoding.parsePrivateKeyFile(try #require(SSHKeyEncoding.armoredPrivateKeyFile(String(contentsOfFile: path, encoding: .utf8))))
        #expect(file.publicKey == key.rawRepresentation)
        let contents = file.algorithm == .ed25519 ? M.ed25519Contents(seed: file.privateKey, publicKey: file.publicKey)
                                                  : M.p256Contents(scalar: file.privateKey, publicKey: file.publicKey)
        guard case .addIdentity(let added, let comment, _) = try SSHAgentRequest.parse([17] + contents + M.string(file.comment)) else { Issue.record("add"); return }
        #expect(added.publicKey == key && comment == "test")
    }

    @Test("SPEC D7: ssh-keygen's RSA, P-384 and P-521 files: the .pub blob round-trips, and the file's private section sent as ssh-add sends it parses to the same key",
          arguments: [["-t", "rsa", "-b", "2048"], ["-t", "rsa", "-b", "3072"], ["-t", "ecdsa", "-b", "384"], ["-t", "ecdsa", "-b", "521"]])
    func sshKeygenNewTypes(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/key"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        process.arguments = arguments + ["-N", "", "-C", "test", "-q", "-f", path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let line = try String(contentsOfFile: path + ".pub", encoding: .utf8).split(separator: " ")
        let blob = Array(try #require(Data(base64Encoded: String(line[1]))))
        let key = try #require(SSHSignature.publicKey(fromBlob: blob))
        #expect(SSHKeyEncoding.publicKeyBlob(key) == blob)
        #expect(key.algorithm.rawValue == (arguments[1] == "rsa" ? "rsa-" + arguments[3] : "p" + arguments[3]))
        // PROTOCOL.key: the private section after its two check numbers is the agent's add layout, then padding 1, 2, 3, ….
        var body = try #require(SSHKeyEncoding.armoredPrivateKeyFile(String(contentsOfFile: path, encoding: .utf8)))
        body.removeFirst(15)
        for _ in 0..<3 { _ = try #require(Self.take(&body)) }
        body.removeFirst(4)
        _ = try #require(Self.take(&body))
        let section = Array(try #require(Self.take(&body)).dropFirst(8))
        let padding = section.reversed().prefix(while: { $0 != 0 && $0 < 8 }).count
        var parsed: SSHAgentRequest?
        for strip in 0...padding { parsed = parsed ?? (try? SSHAgentRequest.parse([17] + section.dropLast(strip))) }
        guard case .addIdentity(let added, let comment, _) = parsed else { Issue.record("add"); return }
        #expect(added.publicKey == key && comment == "test")
        // A private key that does not belong to the public key is refused.
        let file = try SSHKeyEncoding.parsePrivateKeyFile(try #require(SSHKeyEncoding.armoredPrivateKeyFile(String(contentsOfFile: path, encoding: .utf8))))
        #expect(file.publicKey == key.rawRepresentation)
    }

    @Test("SPEC D7: RSA signatures are string rsa-sha2-256|512|ssh-rsa ‖ string signature; PSS has no SSH name; P-384/P-521 r and s are mpints that verify")
    func newSignatures() throws {
        let signature = [UInt8](repeating: 7, count: 256)
        #expect(try SSHSignature.encode(rsaScheme: .pkcs1SHA512, signature: signature) == M.string("rsa-sha2-512") + M.string(signature))
        // SPEC D8: the SHA-1 signature of a key marked for it is RFC 4253's ssh-rsa.
        #expect(try SSHSignature.encode(rsaScheme: .pkcs1SHA1, signature: signature) == M.string("ssh-rsa") + M.string(signature))
        #expect(throws: VaultError.self) { try SSHSignature.encode(rsaScheme: .pssSHA256, signature: signature) }
        #expect(throws: VaultError.self) { try SSHSignature.encode(algorithm: .rsa2048, rawSignature: signature) }
        let key = P384.Signing.PrivateKey()
        let raw = Array(try key.signature(for: Array("m".utf8)).rawRepresentation)
        var rest = Array(try SSHSignature.encode(algorithm: .p384, rawSignature: raw).dropFirst(M.string("ecdsa-sha2-nistp384").count))
        var inner = try #require(Self.take(&rest))
        let r = try #require(Self.take(&inner)), s = try #require(Self.take(&inner))
        let pad = { (n: [UInt8]) -> [UInt8] in let digits = Array(n.drop(while: { $0 == 0 })); return [UInt8](repeating: 0, count: 48 - digits.count) + digits }
        #expect(key.publicKey.isValidSignature(try P384.Signing.ECDSASignature(rawRepresentation: pad(r) + pad(s)), for: Array("m".utf8)))
        #expect(throws: VaultError.self) { try SSHSignature.encode(algorithm: .p521, rawSignature: raw) }
    }

    @Test("SPEC D7: blobs of other types, curves, sizes or with trailing bytes name no key")
    func badBlobs() {
        let ed = M.string("ssh-ed25519") + M.string(Array(M.ed25519.publicKey.rawRepresentation))
        #expect(SSHSignature.publicKey(fromBlob: ed)?.algorithm == .ed25519)
        let q = Array(M.p256.publicKey.x963Representation)
        #expect(SSHSignature.publicKey(fromBlob: M.string("ecdsa-sha2-nistp256") + M.string("nistp256") + M.string(q))?.algorithm == .p256)
        for blob in [ed + [0], Array(ed.dropLast()), M.string("ssh-rsa") + M.string([1]), [],
                     M.string("ecdsa-sha2-nistp256") + M.string("nistp384") + M.string(q),
                     M.string("ecdsa-sha2-nistp256") + M.string("nistp256") + M.string([4] + [UInt8](repeating: 1, count: 64))] {
            #expect(SSHSignature.publicKey(fromBlob: blob) == nil)
        }
    }

    /// Removes one SSH string from the front of `bytes`.
    static func take(_ bytes: inout [UInt8]) -> [UInt8]? {
        guard bytes.count >= 4 else { return nil }
        let count = bytes[..<4].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count - 4 >= count else { return nil }
        defer { bytes.removeFirst(4 + count) }
        return Array(bytes[4..<4 + count])
    }
}
