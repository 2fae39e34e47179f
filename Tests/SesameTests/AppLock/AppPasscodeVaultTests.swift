import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// A vault protected by the app passcode alone (issue 7): no biometrics, no PAM.
@Suite("SPEC E3: the app passcode as a vault's key")
struct AppPasscodeVaultTests {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    let machine = Fixture(devicePasscode: nil, withSensor: false)
    var vaultPath: String { directory.path + "/data/vault.sqlite" }

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func passcode(onErase: (@Sendable () async -> Void)? = nil) -> AppPasscode {
        AppPasscode(appIdentifier: "com.example.notes", store: FileAppPasscodeStore(directory: directory.path + "/passcodes"),
                    cost: AppPasscodeCost(n: 1 << 8, r: 8, p: 1), clock: clock, onErase: onErase)
    }

    private func makeVault(slots: [KeySlot]) async throws {
        let vault = try await Vault.create(at: vaultPath, slots: slots, authenticators: machine.authenticators).vault
        try await vault.add(SecretBytes(utf8: "diary"), service: "notes", account: "2026", accessibility: .whenUnlocked,
                            accessControl: Vault.noAccessControl, context: nil)
    }

    private func secret(_ text: String) -> SecretBytes { SecretBytes(utf8: text) }

    @Test("The passcode opens a passcode-only vault; wrong entries count and are delayed, even for the vault")
    func opens() async throws {
        try await makeVault(slots: [.passcode(secret("482913"), cost: .testing)])
        let lock = passcode()
        try await lock.set(secret("482913"))
        let vault = try await lock.openVault(at: vaultPath, passcode: secret("482913"), authenticators: machine.authenticators)
        let value = try await vault.read(service: "notes", account: "2026", operationPrompt: "Read", context: nil)
        #expect(value.constantTimeEquals(secret("diary")))

        for wrong in ["1", "2", "3", "4"] {
            await #expect(throws: AppPasscodeError.wrongPasscode) {
                _ = try await lock.openVault(at: vaultPath, passcode: secret(wrong), authenticators: machine.authenticators)
            }
        }
        await #expect(throws: AppPasscodeError.self) {
            _ = try await lock.openVault(at: vaultPath, passcode: secret("5"), authenticators: machine.authenticators)
        }
        // Delayed: even the right passcode is not tried against the vault.
        do {
            _ = try await lock.openVault(at: vaultPath, passcode: secret("482913"), authenticators: machine.authenticators)
            Issue.record("opened during a delay")
        } catch {
            guard case .delayed = error else { Issue.record("expected delayed, got \(error)"); return }
        }
    }

    @Test("Changing the passcode re-wraps the vault's passcode slot")
    func change() async throws {
        try await makeVault(slots: [.passcode(secret("482913"), cost: .testing)])
        let lock = passcode()
        try await lock.set(secret("482913"))
        let vault = try await lock.openVault(at: vaultPath, passcode: secret("482913"), authenticators: machine.authenticators)
        try await lock.change(from: secret("482913"), to: secret("771122"), vault: vault, cost: .testing)

        _ = try await lock.openVault(at: vaultPath, passcode: secret("771122"), authenticators: machine.authenticators)
        await #expect(throws: VaultError.authFailed) {
            _ = try await Vault.open(at: vaultPath, unlock: .passcode(secret("482913")), authenticators: machine.authenticators)
        }
    }

    @Test("Erase after ten wrong passcodes removes the vault's passcode slot: a passcode-only vault's data is gone")
    func eraseAfterTen() async throws {
        try await makeVault(slots: [.passcode(secret("482913"), cost: .testing)])
        let path = vaultPath
        let lock = passcode(onErase: { _ = try? await Vault.erasePasscodeSlot(at: path) })
        try await lock.set(secret("482913"))
        try await lock.enableEraseAfterTenFailures(acknowledging: .dataWillBeErased, current: secret("482913"))
        var last: AppPasscodeError?
        for attempt in 1...10 {
            clock.advance(by: 3601)
            do {
                _ = try await lock.openVault(at: vaultPath, passcode: secret("wrong-\(attempt)"), authenticators: machine.authenticators)
            } catch {
                last = error
            }
        }
        guard case .erased = last else {
            Issue.record("expected erased after ten failures, got \(String(describing: last))")
            return
        }
        await #expect(throws: VaultError.locked) {
            _ = try await Vault.open(at: vaultPath, unlock: .passcode(secret("482913")), authenticators: machine.authenticators)
        }
    }

    @Test("Erasing the passcode slot of a vault that also has a device slot keeps the vault readable")
    func eraseKeepsDeviceSlot() async throws {
        try await makeVault(slots: [.device(), .passcode(secret("482913"), cost: .testing)])
        #expect(try await Vault.erasePasscodeSlot(at: vaultPath) == false)
        let vault = try await Vault.open(at: vaultPath, unlock: .device(), authenticators: machine.authenticators)
        #expect(try await vault.contains(service: "notes", account: "2026"))
        await #expect(throws: VaultError.locked) {
            _ = try await Vault.open(at: vaultPath, unlock: .passcode(secret("482913")), authenticators: machine.authenticators)
        }
    }
}
