import Crypto
import CryptoExtras
import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// An RSA key signs SHA-1 (`ssh-rsa`) only when it is marked for
/// it, the mark stored sealed with the key like its constraints (SPEC D8)
/// and enforced by the vault itself, so that no process (an agent, `sesame
/// key sign`, a library caller) gets a SHA-1 signature of an unmarked key.
@Suite("SPEC D8: SHA-1 (ssh-rsa) only for an RSA key marked for it", .timeLimit(.minutes(1)))
struct VaultKeySHA1Tests {
    static let message = Array("an old server's session".utf8)
    static let marked = KeyConstraints(allowsSHA1Signatures: true)

    static func create(_ fixture: TestVault, name: String, algorithm: KeyAlgorithm = .rsa2048, constraints: KeyConstraints) async throws(VaultError) -> VaultKey {
        try await fixture.vault.keys.create(service: "ssh", name: name, algorithm: algorithm, label: nil, accessibility: .whenUnlockedThisDeviceOnly,
                                          accessControl: Vault.noAccessControl, constraints: constraints, context: nil)
    }

    static func sha1(_ vault: Vault, _ name: String) async throws(VaultError) -> [UInt8] {
        try await vault.keys.sign(Self.message, withKey: name, service: "ssh", rsaScheme: .pkcs1SHA1, operationPrompt: "Sign")
    }

    @Test("SPEC D8: an unmarked RSA key refuses SHA-1 before anyone is asked (invalidArgument, the reason names the mark); rsa-sha2-256/512 still sign")
    func unmarkedRefuses() async throws {
        let fixture = try await TestVault()
        // Confirm-each-use: a refusal that came after the prompt would show as one.
        let key = try await Self.create(fixture, name: "k", constraints: KeyConstraints(confirmEachUse: true))
        #expect(!key.constraints.allowsSHA1Signatures)
        do throws(VaultError) {
            _ = try await Self.sha1(fixture.vault, "k")
            Issue.record("an unmarked key signed SHA-1")
        } catch {
            #expect(error.status == .invalidArgument)
            #expect("\(error)".contains("not marked for SHA-1") && "\(error)".contains("--allow-sha1"), "\(error)")
        }
        #expect(fixture.presenter.prompts.isEmpty, "refused before any prompt")
        let plain = try await Self.create(fixture, name: "plain", constraints: .none)
        for scheme in [RSASignatureScheme.pkcs1SHA256, .pkcs1SHA512] {
            let signature = try await fixture.vault.keys.sign(Self.message, withKey: "plain", service: "ssh", rsaScheme: scheme, operationPrompt: "Sign")
            #expect(plain.publicKey.isValidSignature(signature, for: Self.message, rsaScheme: scheme))
        }
        #expect(await fixture.status { _ = try await Self.sha1(fixture.vault, "plain") } == .invalidArgument)
    }

    @Test("SPEC D8: a marked RSA key (created, or imported from PEM) signs PKCS#1 v1.5 over SHA-1, as swift-crypto verifies; only that scheme verifies it")
    func markedSigns() async throws {
        let fixture = try await TestVault()
        let created = try await Self.create(fixture, name: "created", constraints: Self.marked)
        #expect(created.constraints.allowsSHA1Signatures)
        let pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
        let imported = try await fixture.vault.keys.import(SecretBytes(Array(pem.utf8)), service: "ssh", name: "imported", algorithm: nil, label: nil,
                                                         accessibility: .whenUnlockedThisDeviceOnly, accessControl: Vault.noAccessControl,
                                                         constraints: Self.marked, context: nil)
        #expect(imported.constraints.allowsSHA1Signatures)
        for key in [created, imported] {
            let signature = try await Self.sha1(fixture.vault, key.name)
            #expect(signature.count == 256)
            let verifier = try _RSA.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation)
            let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
            #expect(verifier.isValidSignature(parsed, for: Insecure.SHA1.hash(data: Self.message), padding: .insecurePKCS1v1_5))
            #expect(key.publicKey.isValidSignature(signature, for: Self.message, rsaScheme: .pkcs1SHA1))
            #expect(!key.publicKey.isValidSignature(signature, for: Self.message + [0], rsaScheme: .pkcs1SHA1))
            #expect(!key.publicKey.isValidSignature(signature, for: Self.message, rsaScheme: .pkcs1SHA256))
            // The mark adds SHA-1; it takes nothing away.
            let sha256 = try await fixture.vault.keys.sign(Self.message, withKey: key.name, service: "ssh", rsaScheme: .pkcs1SHA256, operationPrompt: "Sign")
            #expect(key.publicKey.isValidSignature(sha256, for: Self.message, rsaScheme: .pkcs1SHA256))
        }
    }

    @Test("SPEC D7: the mark on a key that is not RSA is refused with a reason, and nothing is stored",
          arguments: [KeyAlgorithm.ed25519, .p256, .p384, .p521, .x25519, .p256Agreement])
    func onlyRSA(algorithm: KeyAlgorithm) async throws {
        let fixture = try await TestVault()
        do throws(VaultError) {
            _ = try await Self.create(fixture, name: "k", algorithm: algorithm, constraints: Self.marked)
            Issue.record("\(algorithm) was marked for SHA-1")
        } catch {
            #expect(error.status == .invalidArgument)
            #expect("\(error)".contains("only an RSA key can be marked for SHA-1"), "\(error)")
        }
        if algorithm == .ed25519 {
            // The agent's import path (`ssh-add`) goes through the same check.
            #expect(await fixture.status {
                _ = try await fixture.vault.keys.importRaw(SecretBytes((0..<32).map { _ in UInt8.random(in: 0...255) }), algorithm: .ed25519, service: "ssh",
                                                         name: "raw", label: nil, accessControl: Vault.noAccessControl, constraints: Self.marked, context: nil)
            } == .invalidArgument)
        }
        #expect(try await fixture.vault.keys.list().isEmpty)
    }

    @Test("SPEC D8: the mark is stored with the key (another vault instance reads it and signs SHA-1); adding the key again neither sets nor clears it")
    func storedAndNeverChangedByReAdding() async throws {
        let fixture = try await TestVault()
        _ = try await Self.create(fixture, name: "old", constraints: Self.marked)
        _ = try await Self.create(fixture, name: "new", constraints: .none)
        let reopened = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        #expect(try await reopened.keys.key(service: "ssh", name: "old").constraints.allowsSHA1Signatures)
        #expect(try await reopened.keys.key(service: "ssh", name: "new").constraints.allowsSHA1Signatures == false)
        _ = try await Self.sha1(reopened, "old")
        #expect(await fixture.status { _ = try await Self.sha1(reopened, "new") } == .invalidArgument)

        // As an agent's ssh-add of the same key does: constraints added, the mark asked for.
        let soon = fixture.machine.clock.now().addingTimeInterval(3600)
        let tightened = try await reopened.keys.constrain(service: "ssh", name: "new", with: KeyConstraints(expires: soon, allowsSHA1Signatures: true))
        #expect(!tightened.constraints.allowsSHA1Signatures && tightened.constraints.expires == soon, "re-adding does not set the mark")
        #expect(await fixture.status { _ = try await Self.sha1(reopened, "new") } == .invalidArgument)
        let kept = try await reopened.keys.constrain(service: "ssh", name: "old", with: KeyConstraints(expires: soon))
        #expect(kept.constraints == KeyConstraints(expires: soon, allowsSHA1Signatures: true), "nor clears it")
        #expect(try await fixture.vault.keys.key(service: "ssh", name: "old").constraints == KeyConstraints(expires: soon, allowsSHA1Signatures: true))
        _ = try await Self.sha1(fixture.vault, "old")

        #expect(!KeyConstraints.none.tightened(by: Self.marked).allowsSHA1Signatures)
        #expect(Self.marked.tightened(by: .none).allowsSHA1Signatures)
        #expect(!Self.marked.isEmpty, "a key with only the mark has a record to store")
    }

    @Test("SPEC D8: the mark is flag bit 2 of the constraints record, known answer; version 2 (or 3 with destinations) is kept, version 1 reads it, unknown bits are refused")
    func recordEncoding() throws {
        let record = KeyConstraintsRecord(constraints: Self.marked, since: 0)
        // Version 2, flags 4, no expiry, since 0.0, no boot reading.
        #expect(record.encoded == [2, 4, 0] + [UInt8](repeating: 0, count: 8) + [0])
        #expect(try KeyConstraintsRecord(decoding: record.encoded) == record)
        let all = KeyConstraintsRecord(constraints: KeyConstraints(confirmEachUse: true, refusesForwarding: true, allowsSHA1Signatures: true), since: 0)
        #expect(all.encoded == [2, 7, 0] + [UInt8](repeating: 0, count: 8) + [0])
        #expect(try KeyConstraintsRecord(decoding: [1, 4, 0] + [UInt8](repeating: 0, count: 8)).constraints == Self.marked)
        #expect(throws: ByteReaderError.self) { try KeyConstraintsRecord(decoding: [2, 8, 0] + [UInt8](repeating: 0, count: 8) + [0]) }
        let destination = KeyDestination(to: .init(hostname: "old", hostKeys: [.init(blob: [0, 0, 0, 1, 0x78])]))
        let restricted = KeyConstraintsRecord(constraints: KeyConstraints(destinations: [destination], allowsSHA1Signatures: true), since: 5)
        #expect(restricted.encoded.prefix(2) == [3, 4])
        #expect(try KeyConstraintsRecord(decoding: restricted.encoded) == restricted)
    }
}
