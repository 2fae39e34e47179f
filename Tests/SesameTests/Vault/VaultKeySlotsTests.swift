import Foundation
@testable import Sesame
import SesameTesting
import Testing

@Suite("Vault: key slots")
struct VaultKeySlotsTests {
    @Test("Device, passcode and recovery slots each open the same vault; wrong secrets do not")
    func slots() async throws {
        let passcode = SecretBytes(utf8: "1234-5678")
        let machine = TestMachine()
        let directory = try TemporaryDirectory()
        let path = directory.path + "/vault.sqlite"
        let (vault, recovery) = try await Vault.create(at: path, slots: [.device(), .passcode(passcode, cost: .testing), .recovery],
                                                      authenticators: machine.authenticators)
        try await vault.items.add(SecretBytes(utf8: "kept"), service: "s", account: "a")
        let printed = try #require(recovery).printable
        #expect(printed.count == 52 + 12)

        for unlock in [VaultUnlock.device(), .passcode(passcode), .recovery(try #require(RecoveryKey(printed.lowercased())))] {
            let opened = try await Vault.open(at: path, unlock: unlock, authenticators: machine.authenticators)
            let value = try await opened.items.read(service: "s", account: "a", operationPrompt: "")
            #expect(value.constantTimeEquals(SecretBytes(utf8: "kept")))
        }
        await #expect(throws: VaultError.authFailed) {
            _ = try await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: "0000")), authenticators: machine.authenticators)
        }
        let other = RecoveryKey(String(repeating: "A", count: 52))
        await #expect(throws: VaultError.authFailed) {
            _ = try await Vault.open(at: path, unlock: .recovery(try #require(other)), authenticators: machine.authenticators)
        }
        #expect(RecoveryKey("not a key") == nil)
    }

    @Test("A vault created passcode-only has no device slot and no device key")
    func passcodeOnly() async throws {
        let machine = TestMachine()
        let directory = try TemporaryDirectory()
        let path = directory.path + "/vault.sqlite"
        let (_, recovery) = try await Vault.create(at: path, slots: [.passcode(SecretBytes(utf8: "pc"), cost: .testing)],
                                                  authenticators: machine.authenticators)
        #expect(recovery == nil)
        #expect(!FileManager.default.fileExists(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path)))
        await #expect(throws: VaultError.locked) {
            _ = try await Vault.open(at: path, unlock: .device(), authenticators: machine.authenticators)
        }
        _ = try await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: "pc")), authenticators: machine.authenticators)
    }

    @Test("A missing device key is reported as locked; an existing vault is never overwritten")
    func missingDeviceKey() async throws {
        let fixture = try await TestVault()
        await #expect(throws: VaultError.invalidArgument) {
            _ = try await Vault.create(at: fixture.path, slots: [.device()], authenticators: fixture.machine.authenticators)
        }
        try FileManager.default.removeItem(atPath: Vault.defaultDeviceKeyPath(forVaultAt: fixture.path))
        do {
            _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
            Issue.record("expected locked")
        } catch {
            #expect(error.status == .locked)
            #expect(error.message.contains("device.key"))
        }
    }
}
