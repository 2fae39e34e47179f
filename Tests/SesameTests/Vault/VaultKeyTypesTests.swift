import Crypto
import CryptoExtras
import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// RSA 2048/3072/4096, ECDSA P-384 and P-521 as protected keys (SPEC D7):
/// made or imported inside the vault, used there, verified by
/// swift-crypto's own verifiers on the public side.
@Suite("SPEC D7: RSA, P-384 and P-521 protected keys")
struct VaultKeyTypesTests {
    static let message = Array("the quick brown fox".utf8)

    @Test("SPEC D4, D7: an OpenSSH P-256 key whose scalar is 0 or the group order is a bad key (invalidArgument), not \"the vault's data was altered\"")
    func invalidScalarIsABadKey() async throws {
        let fixture = try await TestVault()
        let order: [UInt8] = [0x00] + Array(Data(base64Encoded: "/////wAAAAD//////////7zm+q2nF56E87nKwvxjJVE=")!)
        let publicKey = [0x04] + [UInt8](repeating: 1, count: 64)
        for scalar in [[UInt8](), order] {
            var section = ByteWriter()
            section.u32(7)
            section.u32(7)
            section.field("ecdsa-sha2-nistp256")
            section.field("nistp256")
            section.field(publicKey)
            section.field(scalar)
            section.field("comment")
            var writer = ByteWriter()
            writer.raw(Array("openssh-key-v1".utf8) + [0])
            writer.field("none")
            writer.field("none")
            writer.field([UInt8]())
            writer.u32(1)
            writer.field([UInt8](repeating: 0, count: 104))
            writer.field(section.bytes)
            let text = "-----BEGIN OPENSSH PRIVATE KEY-----\n\(Data(writer.bytes).base64EncodedString())\n-----END OPENSSH PRIVATE KEY-----\n"
            await #expect {
                _ = try await fixture.vault.keys.import(SecretBytes(Array(text.utf8)), service: "ssh", name: "bad\(scalar.count)")
            } throws: { error in
                guard let error = error as? VaultError else { return false }
                return error.status == .invalidArgument && !error.message.contains("altered")
            }
        }
    }

    @Test("SPEC D7: the stored algorithm names are frozen strings")
    func frozenNames() {
        #expect(KeyAlgorithm.allCases.map(\.rawValue) == ["ed25519", "p256", "x25519", "p256-agreement", "rsa-2048", "rsa-3072", "rsa-4096", "p384", "p521"])
        #expect(RSASignatureScheme.allCases.map(\.rawValue) == ["rsa-sha2-256", "rsa-sha2-512", "rsa-pss-sha256", "rsa-pss-sha512", "ssh-rsa"])
    }

    @Test("SPEC D7: an RSA key made in the vault (marked for SHA-1) has its size, signs with each scheme, and only that scheme verifies",
          arguments: [KeyAlgorithm.rsa2048, .rsa3072, .rsa4096])
    func rsa(algorithm: KeyAlgorithm) async throws {
        let fixture = try await TestVault()
        // Marked for SHA-1 (SPEC D8), so that every scheme signs; VaultKeySHA1Tests has the unmarked key's refusal.
        let key = try await fixture.vault.keys.create(service: "ssh", name: "k", algorithm: algorithm, label: nil, accessibility: .whenUnlockedThisDeviceOnly,
                                                    accessControl: Vault.noAccessControl, constraints: KeyConstraints(allowsSHA1Signatures: true),
                                                    context: nil)
        let verifier = try _RSA.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation)
        #expect(verifier.keySizeInBits == algorithm.rsaBits)
        for scheme in RSASignatureScheme.allCases {
            let signature = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", rsaScheme: scheme, operationPrompt: "Sign")
            #expect(signature.count == algorithm.rsaBits! / 8)
            #expect(key.publicKey.isValidSignature(signature, for: Self.message, rsaScheme: scheme))
            #expect(!key.publicKey.isValidSignature(signature, for: Self.message + [0], rsaScheme: scheme))
            for other in RSASignatureScheme.allCases where other != scheme {
                #expect(!key.publicKey.isValidSignature(signature, for: Self.message, rsaScheme: other), "\(scheme) is not \(other)")
            }
            // swift-crypto's verifier agrees on the padding and the hash.
            let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let verified = switch scheme {
            case .pkcs1SHA256: verifier.isValidSignature(parsed, for: SHA256.hash(data: Self.message), padding: .insecurePKCS1v1_5)
            case .pkcs1SHA512: verifier.isValidSignature(parsed, for: SHA512.hash(data: Self.message), padding: .insecurePKCS1v1_5)
            case .pssSHA256: verifier.isValidSignature(parsed, for: SHA256.hash(data: Self.message), padding: .PSS)
            case .pssSHA512: verifier.isValidSignature(parsed, for: SHA512.hash(data: Self.message), padding: .PSS)
            case .pkcs1SHA1: verifier.isValidSignature(parsed, for: Insecure.SHA1.hash(data: Self.message), padding: .insecurePKCS1v1_5)
            }
            #expect(verified)
        }
        // The default scheme of the generic entry point is rsa-sha2-256; DER does not apply.
        let plain = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Sign")
        #expect(key.publicKey.isValidSignature(plain, for: Self.message, rsaScheme: .pkcs1SHA256))
        await #expect(throws: VaultError.self) {
            try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", encoding: .der, operationPrompt: "Sign")
        }
    }

    @Test("SPEC D7: P-384 signs over SHA-384 and P-521 over SHA-512, raw and DER, as swift-crypto verifies")
    func ecdsa() async throws {
        let fixture = try await TestVault()
        let p384 = try await fixture.vault.keys.create(service: "ssh", name: "p384", algorithm: .p384)
        let p521 = try await fixture.vault.keys.create(service: "ssh", name: "p521", algorithm: .p521)
        #expect(p384.publicKey.rawRepresentation.count == 97 && p521.publicKey.rawRepresentation.count == 133)
        let der384 = try await fixture.vault.keys.sign(Self.message, withKey: "p384", service: "ssh", operationPrompt: "Sign")
        let raw384 = try await fixture.vault.keys.sign(Self.message, withKey: "p384", service: "ssh", encoding: .raw, operationPrompt: "Sign")
        let verifier384 = try P384.Signing.PublicKey(x963Representation: p384.publicKey.rawRepresentation)
        #expect(verifier384.isValidSignature(try P384.Signing.ECDSASignature(derRepresentation: der384), for: Self.message))
        #expect(raw384.count == 96)
        #expect(verifier384.isValidSignature(try P384.Signing.ECDSASignature(rawRepresentation: raw384), for: Self.message))
        #expect(!verifier384.isValidSignature(try P384.Signing.ECDSASignature(rawRepresentation: raw384), for: Self.message + [1]))
        let raw521 = try await fixture.vault.keys.sign(Self.message, withKey: "p521", service: "ssh", encoding: .raw, operationPrompt: "Sign")
        let verifier521 = try P521.Signing.PublicKey(x963Representation: p521.publicKey.rawRepresentation)
        #expect(raw521.count == 132)
        #expect(verifier521.isValidSignature(try P521.Signing.ECDSASignature(rawRepresentation: raw521), for: Self.message))
        #expect(p521.publicKey.isValidSignature(raw521, for: Self.message, encoding: .raw))
        #expect(!p384.publicKey.isValidSignature(raw521, for: Self.message, encoding: .raw))
        // An RSA scheme on an ECDSA key is refused before any prompt.
        let promptsBefore = fixture.presenter.prompts.count
        await #expect(throws: VaultError.self) {
            try await fixture.vault.keys.sign(Self.message, withKey: "p384", service: "ssh", rsaScheme: .pkcs1SHA256, operationPrompt: "Sign")
        }
        #expect(fixture.presenter.prompts.count == promptsBefore)
    }

    @Test("SPEC D7: PKCS#1, PKCS#8 and SEC1 files import as the algorithm they hold; the public key is the file's")
    func importPEM() async throws {
        let fixture = try await TestVault()
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits3072)
        let pkcs1 = try await fixture.vault.keys.import(SecretBytes(Array(rsa.pemRepresentation.utf8)), service: "s", name: "pkcs1")
        let pkcs8 = try await fixture.vault.keys.import(SecretBytes(Array(rsa.pkcs8PEMRepresentation.utf8)), service: "s", name: "pkcs8")
        #expect(rsa.pemRepresentation.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        #expect(pkcs1.algorithm == .rsa3072 && pkcs8.algorithm == .rsa3072)
        #expect(pkcs1.publicKey.rawRepresentation == Array(rsa.publicKey.pkcs1DERRepresentation) && pkcs8.publicKey == pkcs1.publicKey)
        // swift-crypto writes PKCS#8 for NIST keys; SEC1 files come from OpenSSL in KeyTypesCommandTests.
        let p384 = P384.Signing.PrivateKey(), p521 = P521.Signing.PrivateKey()
        for (name, pem, algorithm, raw) in [("pkcs8-384", p384.pemRepresentation, KeyAlgorithm.p384, Array(p384.publicKey.x963Representation)),
                                            ("pkcs8-521", p521.pemRepresentation, .p521, Array(p521.publicKey.x963Representation))] {
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            let imported = try await fixture.vault.keys.import(SecretBytes(Array(pem.utf8)), service: "s", name: name)
            #expect(imported.algorithm == algorithm && imported.publicKey.rawRepresentation == raw, "\(name)")
        }
        // An RSA size Sesame does not keep, and a requested algorithm the file does not hold, are refused with a reason.
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        await #expect { try await fixture.vault.keys.import(SecretBytes(Array(small.pemRepresentation.utf8)), service: "s", name: "small") } throws: {
            ($0 as? VaultError)?.status == .invalidArgument && "\($0)".contains("1024-bit RSA key")
        }
        await #expect(throws: VaultError.self) {
            try await fixture.vault.keys.import(SecretBytes(Array(rsa.pemRepresentation.utf8)), service: "s", name: "x", algorithm: .rsa4096)
        }
    }

    @Test("SPEC D7: a stored RSA key whose size differs from its algorithm is tampered, never used")
    func storedSizeIsChecked() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(throws: VaultError.self) { try PrivateKeyMaterial(algorithm: .rsa3072, stored: Array(rsa.derRepresentation)) }
        #expect(throws: Never.self) { try PrivateKeyMaterial(algorithm: .rsa2048, stored: Array(rsa.derRepresentation)) }
        #expect(throws: VaultError.self) { try PublicKey(algorithm: .rsa4096, rawRepresentation: rsa.publicKey.pkcs1DERRepresentation) }
    }
}
