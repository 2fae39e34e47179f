import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// Feature protection kept in a vault, and the vault passcode as the owner's
/// proof after an enrolment change (SPEC C2: the library's, not the CLI's).
@Suite("Feature protection in a vault")
struct VaultFeatureProtectionTests {
    let directory: TemporaryDirectory
    var path: String { directory.path + "/vault.sqlite" }
    let passcode = SecretBytes(Array("the vault passcode".utf8))

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test("SPEC C2, E5: OwnerVerification.vaultPasscode is true only for the vault's passcode, and each wrong one is counted by the vault")
    func vaultPasscodeVerification() async throws {
        let authenticators = Authenticators(appName: "test")
        _ = try await Vault.create(at: path, slots: [.passcode(passcode, cost: .testing)], authenticators: authenticators)
        let answers = Answers([SecretBytes(Array("wrong".utf8)), passcode])
        let verification = OwnerVerification.vaultPasscode(vaultAt: path, authenticators: authenticators) { _ in answers.next() }
        guard case .custom(let verify) = verification else {
            Issue.record("vaultPasscode is a custom verification")
            return
        }
        #expect(await verify("enrolment changed") == false)
        #expect(try await VaultSlots.passcodeAttempts(at: path)?.consecutiveFailures == 1)
        #expect(await verify("enrolment changed") == true)
        #expect(try await VaultSlots.passcodeAttempts(at: path)?.consecutiveFailures == 0)
        let cancelled = OwnerVerification.vaultPasscode(vaultAt: path, authenticators: authenticators) { _ in nil }
        guard case .custom(let cancel) = cancelled else { return }
        #expect(await cancel("enrolment changed") == false)
    }

    @Test("SPEC B6, C4: FeatureProtection(vault:) seals its record with the key the vault has, through the sealer for a sealed key")
    func sealsWithTheVaultsKey() async throws {
        let sealed = InMemoryDeviceKeyStore()
        var authenticators = Authenticators(appName: "test", sensor: SimulatedSensor())
        authenticators.deviceKeySealer = FixedSealer(store: sealed)
        let (vault, _) = try await Vault.create(at: path, slots: [.device(keyStore: sealed)], authenticators: authenticators)
        try FileManager.default.createDirectory(atPath: directory.path + "/device", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data("sealed".utf8).write(to: URL(fileURLWithPath: Vault.sealedDeviceKeyPath(forVaultAt: path)))
        let protection = FeatureProtection(vault: vault, appIdentifier: "app", authenticators: authenticators)
        try await protection.enable("transfer", policy: .biometrics)
        #expect(try await protection.protectionPolicy(for: "transfer") == .biometrics)
        #expect(!FileManager.default.fileExists(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path)), "no key file beside a sealed key")
        // Without the sealer the record cannot be read: it fails closed.
        let unsealed = FeatureProtection(vault: vault, appIdentifier: "app", authenticators: Authenticators(appName: "test"))
        await #expect(throws: FeatureProtectionError.self) { try await unsealed.protectionPolicy(for: "transfer") }
    }

    /// The passcodes the owner types, in order.
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var remaining: [SecretBytes]
        init(_ answers: [SecretBytes]) { remaining = answers }
        func next() -> SecretBytes? { lock.withLock { remaining.isEmpty ? nil : remaining.removeFirst() } }
    }

    struct FixedSealer: DeviceKeySealer {
        let store: InMemoryDeviceKeyStore
        func sealedStore(at path: String) -> any DeviceKeyStore { store }
    }
}
