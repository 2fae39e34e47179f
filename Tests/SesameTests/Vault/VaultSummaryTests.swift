import Foundation
import Sesame
import SesameTesting
import Testing

/// `Vault.summary(at:)`: what a status report may say without unlocking.
@Suite("Vault summary without unlocking")
struct VaultSummaryTests {
    @Test("The summary gives the slot kinds and the item count, and never needs a key")
    func summary() async throws {
        let fixture = try await TestVault(slots: [.device(), .passcode(SecretBytes(utf8: "1234"), cost: .testing), .recovery])
        #expect(try await Vault.summary(at: fixture.path) == VaultSummary(format: 7, slots: ["device", "passcode", "recovery"], itemCount: 0))
        try await fixture.add("a")
        try await fixture.add("b", service: "other")
        let summary = try await Vault.summary(at: fixture.path)
        #expect(summary.itemCount == 2)
        #expect(summary.slots == ["device", "passcode", "recovery"])
        // No prompt was shown and no scan was asked for.
        #expect(fixture.presenter.prompts.isEmpty)
        #expect(fixture.sensor.scansStarted == 0)
    }

    @Test("A missing file, an SQLite file that is not a vault, and a file open to others are errors")
    func errors() async throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path + "/none.sqlite"
        #expect(await TestVault.status { _ = try await Vault.summary(at: missing) } == .ioError)

        let fixture = try await TestVault()
        try await fixture.rawDatabase().write { try $0.execute(sql: "DROP TABLE slot") }
        #expect(await TestVault.status { _ = try await Vault.summary(at: fixture.path) } == .damaged)

        let open = try await TestVault()
        chmod(open.path, 0o644)
        #expect(await TestVault.status { _ = try await Vault.summary(at: open.path) } == .insecurePermissions)
    }
}
