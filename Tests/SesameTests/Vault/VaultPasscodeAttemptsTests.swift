import Foundation
import GRDB
@testable import Sesame
import SesameTesting
import Testing

/// The vault's passcode slot behind the attempt gate (SPEC E3, E5): the
/// library's own `Vault.open` counts, whoever calls it.
@Suite("SPEC E5: the vault passcode's attempt gate")
struct VaultPasscodeAttemptsTests {
    let directory: TemporaryDirectory
    let machine = TestMachine(devicePasscode: nil, withSensor: false)
    var path: String { directory.path + "/data/vault.sqlite" }

    init() async throws {
        directory = try TemporaryDirectory()
        let vault = try await Vault.create(at: directory.path + "/data/vault.sqlite", slots: [.passcode(SecretBytes(utf8: "482913"), cost: .testing)],
                                           authenticators: TestMachine(devicePasscode: nil, withSensor: false).authenticators).vault
        try await vault.items.add(SecretBytes(utf8: "diary"), service: "notes", account: "2026")
    }

    private func open(_ passcode: String) async throws(VaultError) -> Vault {
        try await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: passcode)), authenticators: machine.authenticators)
    }

    /// The error `open` ended with, or nil when it opened.
    private func failure(_ passcode: String) async -> VaultError? {
        do throws(VaultError) {
            _ = try await open(passcode)
            return nil
        } catch {
            return error
        }
    }

    private func attempts() async throws -> PasscodeAttempts? {
        try await VaultSlots.passcodeAttempts(at: path, clock: machine.clock)
    }

    @Test("SPEC E3, E5: wrong passcodes count in the vault; the 5th starts a delay that refuses even the right one unchecked; a right one clears the count")
    func schedule() async throws {
        #expect(try await attempts() == PasscodeAttempts(consecutiveFailures: 0, delayedUntil: nil))
        for number in 1...4 {
            let error = await failure("wrong \(number)")
            #expect(error?.status == .authFailed)
            #expect(error?.authenticationError?.retryAfter == nil)
            #expect(try await attempts()?.consecutiveFailures == number)
        }
        let fifth = await failure("wrong 5")
        let until = try #require(fifth?.authenticationError?.retryAfter)
        #expect(until == machine.clock.now().addingTimeInterval(60))
        let refused = await failure("482913")
        #expect(refused?.authenticationError?.retryAfter == until)
        #expect(refused?.message.contains("nothing was checked") == true)
        #expect(try await attempts()?.consecutiveFailures == 5, "a refused attempt is not counted")

        machine.clock.advance(by: -3600)
        #expect(await failure("482913")?.authenticationError?.retryAfter != nil, "a clock set back does not shorten the delay")
        machine.clock.advance(by: 3600 + 61)
        let vault = try await open("482913")
        #expect(try await vault.items.contains(service: "notes", account: "2026"))
        #expect(try await attempts() == PasscodeAttempts(consecutiveFailures: 0, delayedUntil: nil))
    }

    @Test("SPEC E5: twenty guesses at once get no more checks than the schedule allows")
    func concurrentGuesses() async throws {
        let (vaultPath, authenticators) = (path, machine.authenticators)
        let errors = await withTaskGroup(of: VaultError?.self) { group in
            for number in 0..<20 {
                group.addTask {
                    do throws(VaultError) {
                        _ = try await Vault.open(at: vaultPath, unlock: .passcode(SecretBytes(utf8: "guess \(number)")), authenticators: authenticators)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [VaultError?]()) { $0.append($1) }
        }
        let checked = errors.compactMap { $0 }.filter { !$0.message.contains("nothing was checked") }
        #expect(errors.allSatisfy { $0?.status == .authFailed })
        #expect(checked.count == 5, "4 free attempts and the 5th, which starts the delay: \(checked.map(\.message))")
        #expect(try await attempts()?.consecutiveFailures == 5)
        #expect(await failure("482913")?.message.contains("nothing was checked") == true)
    }

    @Test("SPEC E5: the attempt is stored before the passcode is checked")
    func countedBeforeChecked() async throws {
        // Another connection sees the count while the check runs: hold the
        // check back with a write lock taken by this test, then look.
        let raw = try DatabaseQueue(path: path)
        let count = try await raw.read { db in try Int.fetchOne(db, sql: "SELECT failures FROM attempt") }
        #expect(count == 0)
        _ = await failure("wrong")
        let after = try await raw.read { db in try Int.fetchOne(db, sql: "SELECT failures FROM attempt") }
        #expect(after == 1)
        let vaultPath = path
        let counter = try await raw.read { db in try PasscodeSlotLedger.read(db, path: vaultPath) }
        #expect(counter.failures == 1)
    }

    @Test("SPEC E5: A deleted, dropped or impossible attempt record fails closed (tampered); the passcode is not checked")
    func tamperedRecord() async throws {
        let raw = try DatabaseQueue(path: path)
        for edit in ["DELETE FROM attempt", "UPDATE attempt SET failures = 'many'", "UPDATE attempt SET failures = -3",
                     "UPDATE attempt SET delay_start = 1, delay_duration = NULL", "DROP TABLE attempt"] {
            try await raw.write { db in
                if try !db.tableExists("attempt") {
                    try db.execute(sql: "CREATE TABLE attempt (subject TEXT PRIMARY KEY NOT NULL, failures INTEGER NOT NULL, delay_start REAL, delay_duration REAL, last_wrong BLOB)")
                }
                try db.execute(sql: "INSERT OR REPLACE INTO attempt (subject, failures) VALUES ('passcode', 0)")
                try db.execute(sql: edit)
            }
            #expect(await failure("482913")?.status == .tampered, "\(edit)")
            await #expect(throws: VaultError.tampered) { _ = try await attempts() }
        }
    }

    @Test("SPEC E3, v4-attempt-clock: a delay migrated from format 3 (no boot-clock start) restarts in full, never shortened; the right passcode is refused")
    func migratedDelayFailsClosed() async throws {
        let raw = try DatabaseQueue(path: path)
        let now = machine.clock.now().timeIntervalSince1970
        // What "v4-attempt-clock" leaves of a format-3 record in its 59th second of a 60-second delay.
        try await raw.write { db in
            try db.execute(sql: "UPDATE attempt SET failures = 5, delay_start = ?, delay_duration = 60, delay_boot_id = NULL, delay_boot_uptime = NULL",
                           arguments: [now - 59])
        }
        let status = try #require(try await attempts())
        let remaining = try #require(status.delayedUntil).timeIntervalSince(machine.clock.now())
        #expect(remaining > 59 && remaining <= 60, "restarted in full: \(remaining)")
        let refused = await failure("482913")
        #expect(refused?.status == .authFailed)
        #expect(refused?.message.contains("nothing was checked") == true, "\(refused?.message ?? "opened")")
        machine.clock.advance(by: 61)
        #expect(await failure("482913") == nil, "the restarted delay ends on the boot clock")
    }

    @Test("SPEC E5: A vault of format 1 (no attempt table) gets a clean record at its first passcode, then counts")
    func formatOneVault() async throws {
        let raw = try DatabaseQueue(path: path)
        try await raw.write { db in try LegacyVault.rollBack(db, to: 1) }
        #expect(try await attempts() == nil, "format 1 has no record yet; reading creates none")
        #expect(try await Vault.summary(at: path).format == 1)
        #expect(await failure("wrong")?.status == .authFailed)
        #expect(try await attempts()?.consecutiveFailures == 1)
        // The migrations that need no key ran (up to v5-key-constraints); sealing waits for a write after unlocking (SPEC D9).
        #expect(try await Vault.summary(at: path).format == Schema.sealedFormat - 1)
    }

    @Test("SPEC E5: Setting the passcode anew resets the count; removing the slot removes the record")
    func slotChanges() async throws {
        _ = await failure("wrong")
        try await Vault.create(at: directory.path + "/other.sqlite", slots: [.device()], authenticators: machine.authenticators)
            .vault.slots.setPasscode(SecretBytes(utf8: "x"), cost: .testing)
        #expect(try await VaultSlots.passcodeAttempts(at: directory.path + "/other.sqlite") == PasscodeAttempts(consecutiveFailures: 0, delayedUntil: nil))
        let vault = try await open("482913")
        _ = await failure("wrong again")
        try await vault.slots.setPasscode(SecretBytes(utf8: "new"), cost: .testing)
        #expect(try await attempts()?.consecutiveFailures == 0)
        #expect(try await VaultSlots.erasePasscode(at: path))
        #expect(try await attempts() == nil)
    }
}
