import Foundation
import Sesame
import Testing
import SesameTesting

/// `Vault.keySlotKinds()`, `passcodeSlotCost()` and `removePasscodeSlot()`.
@Suite("Vault key slot queries")
struct VaultKeySlotQueriesTests {
    @Test("The slots a vault has, and its passcode slot's cost")
    func kinds() async throws {
        let full = try await TestVault(slots: [.device(), .passcode(SecretBytes(utf8: "pc"), cost: .testing), .recovery])
        #expect(try await full.vault.slots.kinds() == [.device, .passcode, .recovery])
        #expect(try await full.vault.slots.passcodeCost() == .testing)

        let deviceOnly = try await TestVault()
        #expect(try await deviceOnly.vault.slots.kinds() == [.device])
        #expect(try await deviceOnly.vault.slots.passcodeCost() == nil)
    }

    @Test("removePasscodeSlot refuses when no device slot would remain, and removes it when one does")
    func remove() async throws {
        let passcode = SecretBytes(utf8: "pc")
        let passcodeOnly = try await TestVault(slots: [.passcode(passcode, cost: .testing), .recovery])
        try await passcodeOnly.vault.items.add(SecretBytes(utf8: "v"), service: "svc", account: "a")
        #expect(await passcodeOnly.status { try await passcodeOnly.vault.slots.removePasscode() } == .invalidArgument)
        #expect(try await passcodeOnly.vault.slots.kinds() == [.passcode, .recovery])
        let reopened = try await Vault.open(at: passcodeOnly.path, unlock: .passcode(passcode), authenticators: passcodeOnly.machine.authenticators)
        #expect(try await reopened.items.list().count == 1)

        let both = try await TestVault(slots: [.device(), .passcode(passcode, cost: .testing)])
        try await both.vault.slots.removePasscode()
        #expect(try await both.vault.slots.kinds() == [.device])
        #expect(await both.status { try await both.vault.slots.removePasscode() } == .invalidArgument, "nothing left to remove")
        #expect(await both.status {
            _ = try await Vault.open(at: both.path, unlock: .passcode(passcode), authenticators: both.machine.authenticators)
        } == .locked)
    }
}
