import Crypto
import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

@Suite("SPEC D7, A12: protected keys in the vault")
struct VaultKeysTests {
    static let message = Array("the quick brown fox".utf8)

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }

    @Test("SPEC D7: a key of each algorithm is created, its public key read without a prompt, and it works", arguments: KeyAlgorithm.allCases)
    func eachAlgorithm(algorithm: KeyAlgorithm) async throws {
        let fixture = try await TestVault()
        let key = try await fixture.vault.keys.create(service: "ssh", name: "k", algorithm: algorithm, accessControl: .biometryAny)
        #expect(key.accessControl.flags == [.biometryAny, .privateKeyUsage])
        #expect(key.accessibility == .whenUnlockedThisDeviceOnly)
        #expect(try await fixture.vault.keys.key(service: "ssh", name: "k") == key)
        #expect(try await fixture.vault.keys.list() == [key])
        #expect(fixture.presenter.prompts.isEmpty && fixture.sensor.scansStarted == 0, "the public key never prompts")
        fixture.sensor.present(.match)
        switch algorithm.purpose {
        case .signing:
            let signature = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Sign")
            #expect(key.publicKey.isValidSignature(signature, for: Self.message))
            #expect(!key.publicKey.isValidSignature(signature, for: Self.message + [0]))
            if algorithm == .p256 {
                // swift-crypto's own verifier agrees (DER, X9.62).
                let verifier = try P256.Signing.PublicKey(x963Representation: key.publicKey.rawRepresentation)
                #expect(verifier.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: Self.message))
            } else if algorithm != .ed25519 {
                // P-384, P-521 and RSA: VaultKeyTypesTests checks them against swift-crypto and OpenSSL.
                #expect(!signature.isEmpty)
            } else {
                #expect(signature.count == 64)
                #expect(try Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey.rawRepresentation).isValidSignature(signature, for: Self.message))
            }
        case .keyAgreement:
            let ciphertext = try key.publicKey.encrypt(Self.message)
            let plaintext = try await fixture.vault.keys.decrypt(ciphertext, withKey: "k", service: "ssh", operationPrompt: "Decrypt")
            #expect(plaintext.withUnsafeBytes { Array($0) } == Self.message)
        }
        #expect(fixture.presenter.prompts.count == 1)
        #expect(fixture.presenter.prompts.first?.reason == (algorithm.purpose == .signing ? "Sign" : "Decrypt"))
    }

    @Test("SPEC D7: the shared secret is the standard one: swift-crypto on the peer's side computes the same", arguments: [KeyAlgorithm.x25519, .p256Agreement])
    func sharedSecret(algorithm: KeyAlgorithm) async throws {
        let fixture = try await TestVault()
        let key = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: algorithm)
        let (peer, expected): (PublicKey, [UInt8])
        if algorithm == .x25519 {
            let other = Curve25519.KeyAgreement.PrivateKey()
            peer = try PublicKey(algorithm: .x25519, rawRepresentation: other.publicKey.rawRepresentation)
            expected = try other.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: key.publicKey.rawRepresentation)).withUnsafeBytes { Array($0) }
        } else {
            let other = P256.KeyAgreement.PrivateKey()
            peer = try PublicKey(algorithm: .p256Agreement, rawRepresentation: other.publicKey.x963Representation)
            expected = try other.sharedSecretFromKeyAgreement(with: .init(x963Representation: key.publicKey.rawRepresentation)).withUnsafeBytes { Array($0) }
        }
        let secret = try await fixture.vault.keys.sharedSecret(withKey: "k", service: "s", peer: peer, operationPrompt: "Agree")
        #expect(secret.withUnsafeBytes { Array($0) } == expected)
        #expect(expected.count == 32)
    }

    @Test("SPEC A12, D3, D7: a context authorised for useKeySign signs without a prompt; one authorised for another operation does not serve")
    func preAuthorisedForThatOperationOnly() async throws {
        let fixture = try await TestVault()
        let key = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .ed25519, accessControl: .biometryCurrentSet)
        let signing = fixture.context()
        fixture.sensor.present(.match)
        try await signing.evaluateAccessControl(key.accessControl, operation: .useKeySign, localizedReason: "Sign twice")
        let scans = fixture.sensor.scansStarted
        for _ in 0..<2 {
            let signature = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "s", operationPrompt: "x", context: signing)
            #expect(key.publicKey.isValidSignature(signature, for: Self.message))
        }
        #expect(fixture.sensor.scansStarted == scans, "no second scan")

        // Authorised for decrypting (and for reading items) only: signing needs its own scan.
        let other = fixture.context()
        fixture.sensor.present(.match)
        try await other.evaluateAccessControl(.biometryCurrentSet, operation: .useKeyDecrypt, localizedReason: "Decrypt")
        fixture.sensor.present(.match)
        try await other.evaluateAccessControl(.biometryCurrentSet, operation: .useItem, localizedReason: "Read")
        let before = fixture.sensor.scansStarted
        other.interactionNotAllowed = true
        #expect(await fixture.status { _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "s", operationPrompt: "x", context: other) } == .interactionNotAllowed)
        #expect(fixture.sensor.scansStarted == before)
    }

    @Test("SPEC D5, D7: an enrolment change invalidates a biometryCurrentSet key for good; a biometryAny key survives")
    func enrolmentChange() async throws {
        let fixture = try await TestVault()
        _ = try await fixture.vault.keys.create(service: "s", name: "current", algorithm: .p256, accessControl: .biometryCurrentSet)
        _ = try await fixture.vault.keys.create(service: "s", name: "any", algorithm: .p256, accessControl: .biometryAny)
        fixture.sensor.present(.match)
        _ = try await fixture.vault.keys.sign(Self.message, withKey: "current", service: "s", operationPrompt: "x")
        fixture.sensor.enrol("another")
        fixture.sensor.present(.match)
        #expect(await fixture.status { _ = try await fixture.vault.keys.sign(Self.message, withKey: "current", service: "s", operationPrompt: "x") } == .itemInvalidated)
        fixture.sensor.unenrol("another")
        fixture.sensor.present(.match)
        #expect(await fixture.status { _ = try await fixture.vault.keys.sign(Self.message, withKey: "current", service: "s", operationPrompt: "x") } == .itemInvalidated)
        fixture.sensor.present(.match)
        _ = try await fixture.vault.keys.sign(Self.message, withKey: "any", service: "s", operationPrompt: "x")
        // Its public key stays readable, so what it signed stays verifiable.
        #expect(try await fixture.vault.keys.key(service: "s", name: "current").algorithm == .p256)
    }

    @Test("SPEC D1, D7: biometrics locked out → the device passcode lifts the lockout, then the key's own scan")
    func lockoutFirst() async throws {
        let fixture = try await TestVault()
        _ = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .ed25519, accessControl: .biometryAny)
        #expect(await fixture.machine.lockOut() == .biometryLockout)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        fixture.sensor.present(.match)
        _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "s", operationPrompt: "x")
        #expect(fixture.presenter.secretRequests.map(\.kind) == [.devicePasscode])
    }

    @Test("SPEC D6, D7: an applicationPassword key signs only with the right password on the context")
    func applicationPassword() async throws {
        let fixture = try await TestVault()
        let create = fixture.context()
        _ = create.setCredential(SecretBytes(utf8: "server-given"), type: .applicationPassword)
        _ = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .p256, accessControl: .applicationPassword, context: create)
        let wrong = fixture.context()
        _ = wrong.setCredential(SecretBytes(utf8: "guess"), type: .applicationPassword)
        #expect(await fixture.status { _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "s", operationPrompt: "x", context: wrong) } == .authFailed)
        _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "s", operationPrompt: "x", context: create)
    }

    @Test("SPEC D7: a key is used only for its purpose, refused before any prompt")
    func purpose() async throws {
        let fixture = try await TestVault()
        let signer = try await fixture.vault.keys.create(service: "s", name: "sign", algorithm: .ed25519, accessControl: .biometryAny)
        let agreer = try await fixture.vault.keys.create(service: "s", name: "agree", algorithm: .x25519, accessControl: .biometryAny)
        #expect(await fixture.status { _ = try await fixture.vault.keys.sign([1], withKey: "agree", service: "s", operationPrompt: "x") } == .invalidArgument)
        #expect(await fixture.status { _ = try await fixture.vault.keys.decrypt([1], withKey: "sign", service: "s", operationPrompt: "x") } == .invalidArgument)
        #expect(await fixture.status { _ = try await fixture.vault.keys.sharedSecret(withKey: "sign", service: "s", peer: agreer.publicKey, operationPrompt: "x") } == .invalidArgument)
        #expect(await fixture.status { _ = try await fixture.vault.keys.sharedSecret(withKey: "agree", service: "s", peer: signer.publicKey, operationPrompt: "x") } == .invalidArgument)
        #expect(await fixture.status { _ = try await fixture.vault.keys.sign([1], withKey: "sign", service: "s", encoding: .der, operationPrompt: "x") } == .invalidArgument)
        #expect(throws: VaultError.self) { try signer.publicKey.encrypt([1]) }
        #expect(fixture.presenter.prompts.isEmpty && fixture.sensor.scansStarted == 0)
    }

    @Test("SPEC D7: decrypting another key's or a changed ciphertext is authFailed, never garbage")
    func wrongCiphertext() async throws {
        let fixture = try await TestVault()
        let a = try await fixture.vault.keys.create(service: "s", name: "a", algorithm: .p256Agreement)
        _ = try await fixture.vault.keys.create(service: "s", name: "b", algorithm: .p256Agreement)
        let ciphertext = try a.publicKey.encrypt(Self.message)
        #expect(ciphertext.count == 65 + Self.message.count + 16)
        #expect(await fixture.status { _ = try await fixture.vault.keys.decrypt(ciphertext, withKey: "b", service: "s", operationPrompt: "x") } == .authFailed)
        for index in [0, 30, 70, ciphertext.count - 1] {
            var changed = ciphertext
            changed[index] ^= 1
            #expect(await fixture.status { _ = try await fixture.vault.keys.decrypt(changed, withKey: "a", service: "s", operationPrompt: "x") } == .authFailed)
        }
        #expect(await fixture.status { _ = try await fixture.vault.keys.decrypt([], withKey: "a", service: "s", operationPrompt: "x") } == .authFailed)
    }

    @Test("SPEC D2, D7: a key must be ThisDeviceOnly; names are required; a second key of one name is a duplicate")
    func creationRules() async throws {
        let fixture = try await TestVault()
        #expect(await fixture.status { _ = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .ed25519, accessibility: .whenUnlocked) } == .invalidArgument)
        #expect(await fixture.status { _ = try await fixture.vault.keys.create(service: "", name: "k", algorithm: .ed25519) } == .invalidArgument)
        _ = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .ed25519, accessibility: .afterFirstUnlockThisDeviceOnly)
        #expect(await fixture.status { _ = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .p256) } == .duplicateItem)
        try await fixture.vault.keys.delete(service: "s", name: "k")
        #expect(await fixture.status { try await fixture.vault.keys.delete(service: "s", name: "k") } == .itemNotFound)
        #expect(await fixture.status { _ = try await fixture.vault.keys.key(service: "s", name: "k") } == .itemNotFound)
    }

    @Test("SPEC D7: keys and items are apart: no item API reaches a key, an item and a key may share a name")
    func apartFromItems() async throws {
        let fixture = try await TestVault()
        _ = try await fixture.vault.keys.create(service: "svc", name: "k", algorithm: .ed25519)
        #expect(try await fixture.vault.items.list().isEmpty)
        #expect(await fixture.status { _ = try await fixture.read("k") } == .itemNotFound)
        #expect(await fixture.status { try await fixture.vault.items.update(SecretBytes(utf8: "x"), service: "svc", account: "k", operationPrompt: "x") } == .itemNotFound)
        #expect(await fixture.status { try await fixture.vault.items.delete(service: "svc", account: "k") } == .itemNotFound)
        try await fixture.add("k", "an item")
        #expect(try await fixture.read("k") == "an item")
        #expect(try await fixture.vault.keys.list().map(\.name) == ["k"])
    }

    @Test("SPEC D7: export skips every key and names it; nothing of a private key is in the file")
    func exportSkipsKeys() async throws {
        let fixture = try await TestVault()
        let pem = Curve25519.Signing.PrivateKey()
        _ = try await fixture.vault.keys.import(SecretBytes(utf8: pem.pemRepresentation), service: "ssh", name: "imported")
        _ = try await fixture.vault.keys.create(service: "ssh", name: "made", algorithm: .p256)
        try await fixture.add("item")
        fixture.sensor.present(.match)
        let report = try await fixture.vault.export(passphrase: SecretBytes(utf8: "long passphrase"), cost: .testing, operationPrompt: "Export")
        #expect(report.transferred == 1)
        #expect(report.skipped.map(\.account).sorted() == ["imported", "made"])
        #expect(report.skipped.allSatisfy { $0.reason.contains("never leave") })
        let entries = try ExportFile.read(report.file, passphrase: SecretBytes(utf8: "long passphrase"))
        #expect(entries.map(\.account) == ["item"])
        let seed = Array(pem.rawRepresentation)
        #expect(!entries.contains { entry in Self.contains(entry.value, Array(seed.prefix(16))) })
    }

    @Test("SPEC D7: The key row: every column changed is tampered; moved into the item table it is not an item")
    func tampering() async throws {
        let fixture = try await TestVault()
        _ = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .ed25519)
        // Algorithm, public key, access control and label are sealed in `attributes` (SPEC D9).
        for column in ["attributes", "wrappings", "ciphertext", "mac"] {
            let scratch = try await TestVault()
            _ = try await scratch.vault.keys.create(service: "s", name: "k", algorithm: .ed25519)
            try await scratch.rawDatabase().write { db in
                try db.execute(sql: "UPDATE key SET \(column) = zeroblob(length(\(column)))")
            }
            #expect(await scratch.status { _ = try await scratch.vault.keys.sign([1], withKey: "k", service: "s", operationPrompt: "x") } == .tampered, "\(column)")
            #expect(await scratch.status { _ = try await scratch.vault.keys.list() } == .tampered, "\(column)")
        }
        let lookup = fixture.vault.subkeys.lookup(table: "item", service: "s", account: "k")
        try await fixture.rawDatabase().write { db in
            // The key row as it is, then under the lookup an item "k" of "s" would have.
            try db.execute(sql: "INSERT INTO item (\(ItemRow.sealedColumns)) SELECT \(ItemRow.sealedColumns) FROM key")
            try db.execute(sql: "UPDATE item SET lookup = ?", arguments: [Data(lookup)])
        }
        #expect(await fixture.status { _ = try await fixture.vault.items.read(service: "s", account: "k", operationPrompt: "x") } == .tampered)
        #expect(await fixture.status { _ = try await fixture.vault.items.list() } == .tampered)
    }

    @Test("SPEC D7: a vault from before keys (format 2) lists none without writing, and gets its key table with the first key")
    func formatTwoVault() async throws {
        let fixture = try await TestVault()
        try await fixture.rawDatabase().write { db in try LegacyVault.rollBack(db, to: 2) }
        #expect(try await fixture.vault.keys.list().isEmpty)
        #expect(await fixture.status { _ = try await fixture.vault.keys.key(service: "s", name: "k") } == .itemNotFound)
        #expect(try await fixture.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'") } == Data("2".utf8))
        _ = try await fixture.vault.keys.create(service: "s", name: "k", algorithm: .x25519)
        #expect(try await fixture.vault.keys.list().count == 1)
        // The first write brings the file to the current format: key table, then sealed names (SPEC D9).
        #expect(try await fixture.rawDatabase().read { db in try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'") } == Data(String(Schema.format).utf8))
    }
}
