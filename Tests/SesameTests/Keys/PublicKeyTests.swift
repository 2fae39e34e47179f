import Crypto
import CryptoExtras
import Foundation
@testable import Sesame
import Testing

@Suite("SPEC D7: public keys and key files")
struct PublicKeyTests {
    @Test("SPEC D7: PEM SubjectPublicKeyInfo round-trips for every algorithm, with the purpose deciding P-256's", arguments: KeyAlgorithm.allCases)
    func pemRoundTrip(algorithm: KeyAlgorithm) throws {
        let key = try PrivateKeyMaterial(generating: algorithm).publicKey
        let parsed = try PublicKey(pemRepresentation: key.pemRepresentation, purpose: algorithm.purpose)
        #expect(parsed == key)
        let otherPurpose: KeyAlgorithm.Purpose = algorithm.purpose == .signing ? .keyAgreement : .signing
        if algorithm == .p256 || algorithm == .p256Agreement {
            #expect(try PublicKey(derRepresentation: key.derRepresentation, purpose: otherPurpose).algorithm != algorithm)
        } else {
            #expect(throws: VaultError.self) { try PublicKey(pemRepresentation: key.pemRepresentation, purpose: otherPurpose) }
        }
    }

    @Test("SPEC D7: OpenSSH lines have the standard blob; agreement keys have none; the fingerprint is SHA-256 of the blob")
    func openSSH() throws {
        let ed = Curve25519.Signing.PrivateKey()
        let key = try PublicKey(algorithm: .ed25519, rawRepresentation: ed.publicKey.rawRepresentation)
        let line = try key.openSSHRepresentation(comment: "a\nb")
        #expect(!line.contains("\n"), "a comment cannot add a line to authorized_keys")
        let parts = line.split(separator: " ")
        #expect(parts.count == 4 && parts[0] == "ssh-ed25519" && parts[2] == "a" && parts[3] == "b")
        let blob = try #require(Data(base64Encoded: String(parts[1])))
        #expect(Array(blob) == [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + Array(ed.publicKey.rawRepresentation))
        let digest = Data(SHA256.hash(data: blob)).base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(key.fingerprint == "SHA256:" + digest)
        let x = try PrivateKeyMaterial(generating: .x25519).publicKey
        #expect(throws: VaultError.self) { try x.openSSHRepresentation() }
    }

    @Test("SPEC D7: Invalid raw keys are refused: wrong length, a point not on P-256")
    func invalidRaw() {
        #expect(throws: VaultError.self) { try PublicKey(algorithm: .ed25519, rawRepresentation: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: VaultError.self) { try PublicKey(algorithm: .p256, rawRepresentation: [4] + [UInt8](repeating: 1, count: 64)) }
        #expect(throws: VaultError.self) { try PublicKey(algorithm: .p256, rawRepresentation: [UInt8](repeating: 1, count: 33)) }
    }

    @Test("SPEC D7: Import: PKCS#8 of each curve names its algorithm; SEC1 is P-256; a mismatch or damage is invalidArgument without quoting the input")
    func importing() throws {
        let ed = Curve25519.Signing.PrivateKey(), x = Curve25519.KeyAgreement.PrivateKey(), ec = P256.Signing.PrivateKey()
        #expect(try PrivateKeyMaterial.importing(ed.pemRepresentation, algorithm: nil).0.algorithm == .ed25519)
        #expect(try PrivateKeyMaterial.importing(x.pemRepresentation, algorithm: nil).0.algorithm == .x25519)
        #expect(try PrivateKeyMaterial.importing(ec.pemRepresentation, algorithm: nil).0.algorithm == .p256)
        #expect(try PrivateKeyMaterial.importing(ec.pemRepresentation, algorithm: .p256Agreement).0.algorithm == .p256Agreement)
        #expect(try PrivateKeyMaterial.importing(ec.pemRepresentation, algorithm: nil).0.publicKey.rawRepresentation == Array(ec.publicKey.x963Representation))
        for (text, requested) in [(x.pemRepresentation, KeyAlgorithm.ed25519), (ed.pemRepresentation, .x25519), (ec.pemRepresentation, .ed25519)] {
            #expect(throws: VaultError.self) { try PrivateKeyMaterial.importing(text, algorithm: requested) }
        }
        let pem = ed.pemRepresentation
        let body = pem.split(separator: "\n")[1]
        for damaged in [String(pem.dropLast(20)), pem.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY"), "", "\(body)",
                        pem.replacingOccurrences(of: "M", with: "N")] {
            do {
                _ = try PrivateKeyMaterial.importing(damaged, algorithm: nil)
                Issue.record("accepted a damaged key")
            } catch {
                #expect(error.status == .invalidArgument)
                #expect(!error.message.contains(body.prefix(12)), "the message never quotes the key")
            }
        }
    }

    @Test("SPEC D7: OpenSSH private key files: the reader refuses truncation at every length, a wrong check, a passphrase, a foreign key type")
    func openSSHFiles() throws {
        // A well-formed unencrypted ssh-ed25519 body, built by hand.
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = Array(key.publicKey.rawRepresentation)
        func body(cipher: String = "none", type: String = "ssh-ed25519", check: UInt32 = 7) -> [UInt8] {
            var section = ByteWriter()
            section.u32(7)
            section.u32(check)
            section.field(type)
            section.field(publicKey)
            section.field(Array(key.rawRepresentation) + publicKey)
            section.field("comment")
            var writer = ByteWriter()
            writer.raw(Array("openssh-key-v1".utf8) + [0])
            writer.field(cipher)
            writer.field(cipher == "none" ? "none" : "bcrypt")
            writer.field([UInt8]())
            writer.u32(1)
            writer.field([UInt8](repeating: 0, count: 51))
            writer.field(section.bytes)
            return writer.bytes
        }
        let good = try SSHKeyEncoding.parsePrivateKeyFile(body())
        #expect(good.algorithm == .ed25519 && good.publicKey == publicKey && good.comment == "comment")
        let whole = body()
        for length in 0..<whole.count {
            #expect(throws: VaultError.self) { try SSHKeyEncoding.parsePrivateKeyFile(Array(whole.prefix(length))) }
        }
        for bad in [body(check: 8), body(cipher: "aes256-ctr"), body(type: "ssh-rsa")] {
            #expect(throws: VaultError.self) { try SSHKeyEncoding.parsePrivateKeyFile(bad) }
        }
    }
}
