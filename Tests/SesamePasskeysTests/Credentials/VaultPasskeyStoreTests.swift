import Crypto
import Foundation
import Sesame
@testable import SesamePasskeys
import SesameTesting
import Testing

/// Passkeys in a real vault on disk: keys made and used inside it, under the
/// owner's finger, ids only this vault opens, counters that only go up.
@Suite("SPEC P1, P4: passkeys kept in the vault")
struct VaultPasskeyStoreTests {
    private let directory: TemporaryDirectory
    private let machine = TestMachine()
    private let vault: Vault
    private let store: VaultPasskeyStore

    init() async throws {
        directory = try TemporaryDirectory()
        vault = try await Vault.create(at: directory.path + "/vault.sqlite", slots: [.device()], authenticators: machine.authenticators).vault
        store = VaultPasskeyStore(vault: vault)
    }

    private func creation(_ rp: String = "example.com", discoverable: Bool = true, algorithm: PasskeyAlgorithm = .es256, hmac: Bool = true) -> PasskeyCreation {
        PasskeyCreation(relyingPartyID: rp, relyingPartyName: "Example", userHandle: [1, 2, 3, 4], userName: "ada@example.com",
                        userDisplayName: "Ada", algorithm: algorithm, isDiscoverable: discoverable,
                        extensions: hmac ? [HMACSecretExtension.identifier: HMACSecretExtension.state] : [:])
    }

    /// hmac-secret's CredRandoms of the credentials ``make(_:)`` makes.
    private static let credRandoms = [UInt8](repeating: 0x11, count: 32) + [UInt8](repeating: 0x22, count: 32)

    /// One ceremony: the owner's finger once, then the credential made.
    private func make(_ creation: PasskeyCreation) async throws -> PasskeyCredential {
        let context = machine.context()
        machine.sensor.present(.match)
        try await store.verifyOwner(for: creation.relyingPartyID, reason: "Create a passkey for \(creation.relyingPartyID)", context: context)
        let secrets = HMACSecretExtension.isEnabled(for: creation) ? [HMACSecretExtension.identifier: Self.credRandoms] : [:]
        return try await store.makeCredential(creation, secrets: secrets, reason: "Create a passkey", context: context)
    }

    @Test("SPEC P1: one verification, then a signature that swift-crypto verifies and an hmac-secret key, with no second prompt", arguments: PasskeyAlgorithm.allCases)
    func ceremony(_ algorithm: PasskeyAlgorithm) async throws {
        let credential = try await make(creation(algorithm: algorithm))
        #expect(credential.publicKey.algorithm == algorithm.keyAlgorithm)
        let context = machine.context()
        machine.sensor.present(.match)
        let before = machine.presenter.prompts.count
        try await store.verifyOwner(for: "example.com", reason: "Sign in to example.com", context: context)
        let data = Array("authenticator data and client data hash".utf8)
        let signature = try await store.sign(data, with: credential, reason: "Sign in to example.com", context: context)
        let credRandoms = try await store.secret(of: credential, for: HMACSecretExtension.identifier, reason: "Sign in to example.com",
                                                 context: context)
        #expect(machine.presenter.prompts.count == before + 1)
        #expect(machine.presenter.prompts.last?.reason == "Sign in to example.com")
        #expect(credRandoms == Self.credRandoms)
        switch algorithm {
        case .es256:
            let key = try P256.Signing.PublicKey(x963Representation: credential.publicKey.rawRepresentation)
            #expect(key.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: data))
        case .edDSA:
            let key = try Curve25519.Signing.PublicKey(rawRepresentation: credential.publicKey.rawRepresentation)
            #expect(key.isValidSignature(signature, for: data))
        }
    }

    @Test("SPEC P1: a stranger's finger signs nothing and the counter stays")
    func stranger() async throws {
        let credential = try await make(creation())
        machine.sensor.present(.noMatch, .noMatch, .noMatch)
        await #expect(throws: (any Error).self) {
            try await store.sign([1, 2, 3], with: credential, reason: "Sign in to example.com", context: machine.context())
        }
        #expect(try await store.credentials(relyingPartyID: "example.com", ids: [credential.id]).first?.signatureCount == 0)
    }

    @Test("SPEC P4: an id opens in its vault for its relying party only; ids are not the key's name; counters go up across stores")
    func idsAndCounters() async throws {
        let credential = try await make(creation(discoverable: false))
        #expect(try await store.credentials(relyingPartyID: "example.com", ids: [credential.id, [0, 1, 2]]).map(\.id) == [credential.id])
        #expect(try await store.credentials(relyingPartyID: "evil.example", ids: [credential.id]).isEmpty)
        let other = try await Vault.create(at: directory.path + "/other.sqlite", slots: [.device()], authenticators: machine.authenticators).vault
        #expect(try await VaultPasskeyStore(vault: other).credentials(relyingPartyID: "example.com", ids: [credential.id]).isEmpty)
        // Not discoverable: never listed by relying party alone.
        #expect(try await store.discoverableCredentials(relyingPartyID: "example.com").isEmpty)
        for expected in 1...3 {
            #expect(try await store.nextSignatureCount(of: credential) == UInt32(expected))
        }
        let reopened = VaultPasskeyStore(vault: try await Vault.open(at: directory.path + "/vault.sqlite", unlock: .device(), authenticators: machine.authenticators))
        #expect(try await reopened.credentials(relyingPartyID: "example.com", ids: [credential.id]).first?.signatureCount == 3)
    }

    @Test("SPEC P4: eight stores on one vault file, as eight processes, taking counters at once: every value once, in one run from 1")
    func countersTakenAtOnce() async throws {
        let credential = try await make(creation())
        var stores: [VaultPasskeyStore] = []
        for _ in 0..<8 {
            stores.append(VaultPasskeyStore(vault: try await Vault.open(at: directory.path + "/vault.sqlite", unlock: .device(), authenticators: machine.authenticators)))
        }
        let counts = try await withThrowingTaskGroup(of: [UInt32].self) { group in
            for store in stores {
                group.addTask { var taken: [UInt32] = []; for _ in 0..<4 { taken.append(try await store.nextSignatureCount(of: credential)) }; return taken }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(counts.sorted() == Array(1...32))
        #expect(try await store.credentials(relyingPartyID: "example.com", ids: [credential.id]).first?.signatureCount == 32)
    }

    @Test("SPEC P1: discoverable credentials are listed per relying party, newest first, with what was stored; delete removes key and items")
    func discoverableAndDelete() async throws {
        let first = try await make(creation())
        machine.clock.advance(by: 5)
        _ = try await make(creation("other.example"))
        let listed = try await store.discoverableCredentials(relyingPartyID: "example.com")
        #expect(listed.map(\.id) == [first.id])
        #expect(listed.first?.creation == creation())
        #expect(try await store.allCredentials().count == 2)
        try await store.delete(first)
        #expect(try await store.discoverableCredentials(relyingPartyID: "example.com").isEmpty)
        #expect(try await vault.keys.list(service: VaultPasskeyStore.service).count == 1)
        #expect(try await vault.items.list(service: VaultPasskeyStore.secretService(for: HMACSecretExtension.identifier)).count == 1)
    }

    @Test("SPEC D7: export leaves passkeys in the vault: keys, records and hmac-secret keys are this device's only")
    func notExported() async throws {
        _ = try await make(creation())
        #expect(try await vault.keys.list(service: VaultPasskeyStore.service).allSatisfy { $0.accessibility == .whenUnlockedThisDeviceOnly })
        #expect(try await vault.items.list().allSatisfy { $0.accessibility == .whenUnlockedThisDeviceOnly })
    }
}
