import Foundation
@testable import Sesame
import SesameTesting
import Testing

@Suite("SPEC D2: export and import")
struct VaultTransferTests {
    @Test("SPEC D2: ThisDeviceOnly items are excluded from export; the others arrive in another vault")
    func roundTrip() async throws {
        let source = try await TestVault()
        try await source.add("portable", "p-value")
        try await source.add("presence", "u-value", accessControl: .userPresence)
        try await source.add("current", "c-value", accessControl: .biometryCurrentSet)
        try await source.add("local", accessibility: .whenUnlockedThisDeviceOnly)
        try await source.add("local2", accessibility: .afterFirstUnlockThisDeviceOnly)
        source.sensor.present(.match)
        let report = try await source.vault.export(passphrase: SecretBytes(utf8: "correct horse"), cost: .testing, operationPrompt: "Back up")
        #expect(report.transferred == 3)
        #expect(Set(report.skipped.map(\.account)) == ["local", "local2"])
        #expect(report.skipped.allSatisfy { $0.reason.contains("never leave") })

        let target = try await TestVault()
        let imported = try await target.vault.importItems(from: report.file, passphrase: SecretBytes(utf8: "correct horse"))
        #expect(imported.transferred == 3 && imported.skipped.isEmpty)
        #expect(try await target.read("portable") == "p-value")
        target.sensor.present(.match)
        #expect(try await target.read("current") == "c-value")
        #expect(try await target.vault.items.list().first { $0.account == "presence" }?.accessControl == .userPresence)

        let again = try await target.vault.importItems(from: report.file, passphrase: SecretBytes(utf8: "correct horse"))
        #expect(again.transferred == 0 && again.skipped.count == 3, "existing items are never overwritten")
        #expect(try await target.read("portable") == "p-value")
    }

    @Test("SPEC D2: where nothing can ask the owner (no reader, no PAM service), export carries what opening the vault gives and names the rest")
    func exportWhereNothingCanAsk() async throws {
        let source = try await TestVault(slots: [.passcode(SecretBytes(utf8: "vault pass"), cost: .testing)])
        try await source.add("plain", "p-value")
        try await source.add("finger", "f-value", accessControl: .userPresence)
        let withPassword = source.context()
        withPassword.setCredential(SecretBytes(utf8: "app pw"), type: .applicationPassword)
        try await source.add("app", "a-value", accessControl: .applicationPassword, context: withPassword)
        // Now a vault passcode alone protects it: no reader, no login password.
        source.sensor.unplug()
        source.machine.devicePasscode.set(nil)

        let context = source.context()
        context.setCredential(SecretBytes(utf8: "app pw"), type: .applicationPassword)
        let report = try await source.vault.export(passphrase: SecretBytes(utf8: "pp"), cost: .testing, operationPrompt: "Back up", context: context)
        #expect(report.transferred == 2)
        #expect(report.skipped.map(\.account) == ["finger"])
        #expect(report.skipped.first?.reason.contains("nothing on this machine can ask") == true, "\(report.skipped)")

        let target = try await TestVault(machine: TestMachine(devicePasscode: nil, withSensor: false),
                                         slots: [.passcode(SecretBytes(utf8: "other"), cost: .testing)])
        let imported = try await target.vault.importItems(from: report.file, passphrase: SecretBytes(utf8: "pp"), context: context)
        #expect(imported.transferred == 2 && imported.skipped.isEmpty, "\(imported.skipped)")
        #expect(try await target.read("plain") == "p-value")
        #expect(try await target.read("app", context: context) == "a-value")
    }

    @Test("SPEC D2: Import refuses damaged files and wrong passphrases clearly, importing nothing")
    func damaged() async throws {
        let source = try await TestVault()
        try await source.add("a")
        source.sensor.present(.match)
        let file = try await source.vault.export(passphrase: SecretBytes(utf8: "pp"), cost: .testing, operationPrompt: "Back up").file
        let target = try await TestVault()
        let pass = SecretBytes(utf8: "pp")
        var flipped = file
        flipped[flipped.count / 2] ^= 1
        var futureVersion = file
        futureVersion[8] = 9
        let cases: [([UInt8], VaultError.Status)] = [
            (Array(file.prefix(file.count - 10)), .damaged),
            (flipped, .damaged),
            (futureVersion, .damaged),
            (Array("hello".utf8), .damaged),
        ]
        for (bytes, status) in cases {
            #expect(await target.status { _ = try await target.vault.importItems(from: bytes, passphrase: pass) } == status)
        }
        #expect(await target.status { _ = try await target.vault.importItems(from: file, passphrase: SecretBytes(utf8: "no")) } == .authFailed)
        #expect(try await target.vault.items.list().isEmpty)
    }
}
