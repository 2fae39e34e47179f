import Crypto
import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// SPEC D8: a key's lifetime and confirmation are stored with it, sealed and
/// bound to its row, and enforced by the vault at every use, so
/// `ssh-add -t` and `-c` survive the agent.
@Suite("SPEC D8: key constraints stored with the key and enforced by the vault")
struct VaultKeyConstraintsTests {
    static let message = Array("deploy".utf8)

    /// An Ed25519 key imported as `ssh-add` hands one over, with `constraints`.
    static func addKey(_ fixture: TestVault, name: String = "k", algorithm: KeyAlgorithm = .ed25519,
                       constraints: KeyConstraints) async throws -> VaultKey {
        let seed = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let scalar = algorithm == .ed25519 ? seed : Array(P256.Signing.PrivateKey().rawRepresentation)
        return try await fixture.vault.keys.importRaw(SecretBytes(scalar), algorithm: algorithm, service: "ssh", name: name, label: nil,
                                                    accessControl: Vault.noAccessControl, constraints: constraints, context: nil)
    }

    static func keyRows(_ fixture: TestVault) async throws -> Int? {
        try await fixture.rawDatabase().read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM key") }
    }

    @Test("SPEC D8: past its lifetime a key is listed nowhere, refused at its next use and deleted from the file")
    func lifetime() async throws {
        let fixture = try await TestVault()
        let added = try await Self.addKey(fixture, constraints: KeyConstraints(expires: fixture.machine.clock.now().addingTimeInterval(8)))
        #expect(added.constraints.expires == fixture.machine.clock.now().addingTimeInterval(8))
        #expect(try await fixture.vault.keys.key(service: "ssh", name: "k").constraints == added.constraints, "stored, read back")
        _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Sign")
        fixture.machine.clock.advance(by: 8)
        #expect(try await fixture.vault.keys.list().isEmpty)
        #expect(await fixture.status { _ = try await fixture.vault.keys.key(service: "ssh", name: "k") } == .itemNotFound)
        #expect(try await Self.keyRows(fixture) == 1, "listing never writes")
        #expect(await fixture.status {
            _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Sign")
        } == .itemNotFound)
        #expect(try await Self.keyRows(fixture) == 0, "the use deleted it")
    }

    @Test("SPEC D8: a lifetime is not stretched by a clock set back past the moment it was set")
    func clockSetBack() async throws {
        let fixture = try await TestVault()
        _ = try await Self.addKey(fixture, constraints: KeyConstraints(expires: fixture.machine.clock.now().addingTimeInterval(8)))
        fixture.machine.clock.advance(by: -3600)
        #expect(await fixture.status {
            _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Sign")
        } == .notAvailable)
    }

    @Test("SPEC D8: a process whose wall clock stands still does not stretch a lifetime: it is measured on the kernel's boot clock")
    func wallClockHeldStill() async throws {
        let fixture = try await TestVault()
        _ = try await Self.addKey(fixture, constraints: KeyConstraints(expires: fixture.machine.clock.now().addingTimeInterval(8)))
        // Eight seconds pass; the process's wall clock says none did.
        fixture.machine.clock.advance(by: 8)
        fixture.machine.clock.setWallClock(by: -8)
        #expect(try await fixture.vault.keys.list().isEmpty)
        #expect(await fixture.status {
            _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Sign")
        } == .itemNotFound)
        #expect(try await Self.keyRows(fixture) == 0, "the use deleted it")
    }

    @Test("SPEC D8: a lifetime set before a reboot has ended after it, whatever the wall clock says")
    func lifetimeEndsAtReboot() async throws {
        let fixture = try await TestVault()
        _ = try await Self.addKey(fixture, constraints: KeyConstraints(expires: fixture.machine.clock.now().addingTimeInterval(3600)))
        _ = try await Self.addKey(fixture, name: "plain", constraints: KeyConstraints(confirmEachUse: false))
        fixture.machine.clock.reboot(downtime: 0, uptime: 5)
        #expect(try await fixture.vault.keys.list().map(\.name) == ["plain"], "a key without a lifetime survives the reboot")
        #expect(await fixture.status {
            _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Sign")
        } == .itemNotFound)
    }

    @Test("SPEC D8: a confirm-each-use key asks the owner at every use, also with a context authorised ahead of time; no answer, no use",
          arguments: [KeyAlgorithm.ed25519, .x25519])
    func confirmation(algorithm: KeyAlgorithm) async throws {
        let fixture = try await TestVault(machine: TestMachine(withSensor: false))
        let key = try await Self.addKey(fixture, algorithm: algorithm, constraints: KeyConstraints(confirmEachUse: true))
        #expect(key.constraints.confirmEachUse)
        func use(_ context: AuthenticationContext? = nil) async -> VaultError.Status? {
            await fixture.status {
                if algorithm == .ed25519 {
                    _ = try await fixture.vault.keys.sign(Self.message, withKey: "k", service: "ssh", operationPrompt: "Use k", context: context)
                } else {
                    _ = try await fixture.vault.keys.decrypt(try key.publicKey.encrypt(Self.message), withKey: "k", service: "ssh",
                                                        operationPrompt: "Use k", context: context)
                }
            }
        }
        fixture.presenter.answerSecrets(.enter("device-1234"))
        #expect(await use() == nil)
        #expect(fixture.presenter.prompts.map(\.reason) == ["Use k"])
        #expect(await use() == .userCanceled, "nobody answers the second prompt: refused")
        #expect(fixture.presenter.prompts.count == 2, "every use asks")

        let authorised = fixture.context()
        try await authorised.evaluateAccessControl(key.accessControl, operation: algorithm == .ed25519 ? .useKeySign : .useKeyDecrypt,
                                                   localizedReason: "ahead")
        #expect(await use(authorised) == .userCanceled, "an authorisation made ahead of time is no confirmation")
        let silent = fixture.context()
        silent.interactionNotAllowed = true
        #expect(await use(silent) == .interactionNotAllowed, "a caller that cannot ask is refused")
    }

    @Test("SPEC D8: dropping a key's constraints from its row, or moving a sealed record to another key, fails closed (tampered)")
    func tampering() async throws {
        let fixture = try await TestVault()
        _ = try await Self.addKey(fixture, name: "a", constraints: KeyConstraints(confirmEachUse: true))
        _ = try await Self.addKey(fixture, name: "b", constraints: KeyConstraints(expires: fixture.machine.clock.now().addingTimeInterval(60)))
        // The constraints live in the row's sealed attributes (SPEC D9), so
        // without the master key they cannot be edited at all; with it (this
        // isolates the MAC), a row rewritten without them fails its MAC.
        let subkeys = fixture.vault.subkeys
        try await fixture.rawDatabase().write { db in
            var a = try #require(try ItemRow.fetch(db, table: "key", service: "ssh", account: "a", subkeys: subkeys))
            a.key?.constraints = nil
            try a.replace(db, subkeys: subkeys)
        }
        #expect(await fixture.status {
            _ = try await fixture.vault.keys.sign(Self.message, withKey: "a", service: "ssh", operationPrompt: "Sign")
        } == .tampered)
        #expect(await fixture.status { _ = try await fixture.vault.keys.list() } == .tampered)

        // Even with a valid row MAC, b's record does not open as c's.
        _ = try await Self.addKey(fixture, name: "c", constraints: KeyConstraints(confirmEachUse: true))
        try await fixture.rawDatabase().write { db in
            let b = try #require(try ItemRow.fetch(db, table: "key", service: "ssh", account: "b", subkeys: subkeys))
            var c = try #require(try ItemRow.fetch(db, table: "key", service: "ssh", account: "c", subkeys: subkeys))
            c.key?.constraints = b.key?.constraints
            c.mac = subkeys.mac(c)
            try c.replace(db, subkeys: subkeys)
        }
        #expect(await fixture.status {
            _ = try await fixture.vault.keys.sign(Self.message, withKey: "c", service: "ssh", operationPrompt: "Sign")
        } == .tampered)
    }

    @Test("SPEC D8: adding constraints to a stored key only tightens them; none, or a later expiry, lifts nothing")
    func onlyTightened() async throws {
        let fixture = try await TestVault()
        let soon = fixture.machine.clock.now().addingTimeInterval(10)
        _ = try await Self.addKey(fixture, constraints: KeyConstraints(expires: soon, confirmEachUse: true))
        var key = try await fixture.vault.keys.constrain(service: "ssh", name: "k", with: .none)
        #expect(key.constraints == KeyConstraints(expires: soon, confirmEachUse: true))
        key = try await fixture.vault.keys.constrain(service: "ssh", name: "k", with: KeyConstraints(expires: soon.addingTimeInterval(3600)))
        #expect(key.constraints == KeyConstraints(expires: soon, confirmEachUse: true))

        _ = try await Self.addKey(fixture, name: "plain", constraints: .none)
        key = try await fixture.vault.keys.constrain(service: "ssh", name: "plain", with: KeyConstraints(confirmEachUse: true))
        #expect(key.constraints.confirmEachUse)
        #expect(try await fixture.vault.keys.key(service: "ssh", name: "plain").constraints.confirmEachUse, "stored")
    }

    @Test("SPEC D8: a key of a format 3 file (no constraints) reads and signs as it is; the first constrained key upgrades the file, and the old key keeps working")
    func migrationFromFormat3() async throws {
        let fixture = try await TestVault()
        let old = try await Self.addKey(fixture, name: "old", constraints: .none)
        // Back to what format 3 wrote: the same key as a clear row, MACed without a lookup.
        let subkeys = fixture.vault.subkeys
        let sealed = try await fixture.rawDatabase().read { db in
            try #require(try ItemRow.fetch(db, table: "key", service: "ssh", account: "old", subkeys: subkeys))
        }
        var legacy = sealed
        legacy.lookup = nil
        legacy.mac = subkeys.mac(legacy)
        let row = legacy
        let publicKey = try #require(row.key?.publicKey)
        try await fixture.rawDatabase().write { db in
            try LegacyVault.rollBack(db, to: 3)
            try db.execute(sql: "INSERT INTO key (\(ItemRow.keyTableColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                row.id, row.service, row.account, row.label, row.accessibility, row.accessControl, row.created, row.modified,
                Data(row.wrappings), row.commitment.map { Data($0) }, Data(row.ciphertext), Data(row.mac), row.key?.algorithm, Data(publicKey)])
        }
        let vault = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        #expect(try await vault.keys.list() == [old])
        _ = try await vault.keys.sign(Self.message, withKey: "old", service: "ssh", operationPrompt: "Sign")
        _ = try await vault.keys.importRaw(SecretBytes((0..<32).map { _ in UInt8.random(in: 0...255) }), algorithm: .ed25519, service: "ssh",
                                         name: "new", label: nil, accessControl: Vault.noAccessControl,
                                         constraints: KeyConstraints(confirmEachUse: true), context: nil)
        #expect(try await Vault.summary(at: fixture.path).format == Schema.format)
        #expect(try await vault.keys.list().map(\.name) == ["new", "old"])
        _ = try await vault.keys.sign(Self.message, withKey: "old", service: "ssh", operationPrompt: "Sign")
    }
}
