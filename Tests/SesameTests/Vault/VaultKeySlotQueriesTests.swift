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
        #expect(try await full.vault.keySlotKinds() == [.device, .passcode, .recovery])
        #expect(try await full.vault.passcodeSlotCost() == .testing)

        let deviceOnly = try await TestVault()
        #expect(try await deviceOnly.vault.keySlotKinds() == [.device])
        #expect(try await deviceOnly.vault.passcodeSlotCost() == nil)
    }

    @Test("removePasscodeSlot refuses when no device slot would remain, and removes it when one does")
    func remove() async throws {
        let passcode = SecretBytes(utf8: "pc")
        let passcodeOnly = try await TestVault(slots: [.passcode(passcode, cost: .testing), .recovery])
        try await passcodeOnly.vault.add(SecretBytes(utf8: "v"), service: "svc", account: "a")
        #expect(await passcodeOnly.status { try await passcodeOnly.vault.removePasscodeSlot() } == .invalidArgument)
        #expect(try await passcodeOnly.vault.keySlotKinds() == [.passcode, .recovery])
        let reopened = try await Vault.open(at: passcodeOnly.path, unlock: .passcode(passcode), authenticators: passcodeOnly.machine.authenticators)
        #expect(try await reopened.list().count == 1)

        let both = try await TestVault(slots: [.device(), .passcode(passcode, cost: .testing)])
        try await both.vault.removePasscodeSlot()
        #expect(try await both.vault.keySlotKinds() == [.device])
        #expect(await both.status { try await both.vault.removePasscodeSlot() } == .invalidArgument, "nothing left to remove")
        #expect(await both.status {
            _ = try await Vault.open(at: both.path, unlock: .passcode(passcode), authenticators: both.machine.authenticators)
        } == .locked)
    }
}
