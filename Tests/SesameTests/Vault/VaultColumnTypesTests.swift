import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// Regression for a fuzzing find (Fuzz/Regressions): a column of the wrong
/// SQLite type crashed every reader; it must read as tampered.
@Suite("Vault: columns of the wrong type")
struct VaultColumnTypesTests {
    @Test("A text or blob where a number belongs, or a number where a blob belongs, reads as tampered, never a crash",
          arguments: [
              // Names, labels and dates are sealed in `attributes` (SPEC D9).
              ("attributes", "'not a blob'"), ("attributes", "x'00ff'"), ("lookup", "3.5"), ("wrappings", "42"),
              ("mac", "42"), ("ciphertext", "3.5"), ("commitment", "7"),
          ])
    func wrongType(column: String, value: String) async throws {
        let fixture = try await TestVault()
        try await fixture.add("victim")
        try await fixture.add("bystander")
        let victim = Data(fixture.vault.subkeys.lookup(table: "item", service: "svc", account: "victim"))
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "UPDATE item SET \(column) = \(value) WHERE lookup = ?", arguments: [victim])
        }
        let read = await fixture.status { _ = try await fixture.read("victim") }
        // An unreadable service or id may also make the row simply not match: either way, no crash and no data.
        #expect(read == .tampered || read == .itemNotFound, "\(column): \(String(describing: read))")
        #expect(await fixture.status { _ = try await fixture.vault.items.list() } == .tampered)
        #expect(try await fixture.read("bystander") == "secret", "intact items stay readable")
    }

    @Test("A key slot with a column of the wrong type is reported as damaged")
    func slotColumn() async throws {
        let fixture = try await TestVault()
        try await fixture.rawDatabase().write { db in
            try db.execute(sql: "UPDATE slot SET log2n = 'big' WHERE kind = 'device'")
        }
        await #expect(throws: VaultError.damaged) {
            _ = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        }
    }
}
