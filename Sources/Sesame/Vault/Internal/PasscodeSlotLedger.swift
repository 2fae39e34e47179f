#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// The attempt record of a vault's passcode slot: one row of the `attempt`
/// table in the vault file itself (SPEC E5), and its attempts in flight in
/// `attempt_in_flight`. The slot is what is limited: there is no second hash
/// of the passcode anywhere.
///
/// Counting is an SQLite `IMMEDIATE` write transaction, so every process
/// that opens the vault takes the same exclusive lock, and `synchronous =
/// FULL` makes the count durable before the passcode is checked. The record
/// cannot be authenticated (a locked vault has no key to do it with); a
/// deleted, unreadable or impossible record fails closed, a plausible edit or
/// a rolled-back file is not detected (SECURITY.md).
struct PasscodeSlotLedger: AttemptLedger {
    static let subject = KeySlotKind.passcode.rawValue

    let database: VaultDatabase
    let path: String
    /// Whose record: the passcode slot's, or an item's application password
    /// (``itemSubject(table:id:)``).
    var subject: String = Self.subject
    /// An item's record is made at its first attempt; the passcode slot's is
    /// made with the slot, so a missing one was deleted (fail closed).
    var missingIsFresh = false

    /// The record of an item's application password (SPEC E5): named by the
    /// item's table and row id, never by its service or account.
    static func itemSubject(table: String, id: Int64) -> String { "app-password:\(table):\(id)" }

    func update<Value: Sendable>(_ change: @escaping @Sendable (inout AttemptCounter) -> Value) async throws -> Value {
        let (path, subject, missingIsFresh) = (self.path, self.subject, self.missingIsFresh)
        return try await database.write { db in
            let stored = try Self.read(db, path: path, subject: subject, missingIsFresh: missingIsFresh)
            var counter = stored
            let value = change(&counter)
            // A waiting attempt polls: an unchanged record is not rewritten.
            if counter != stored { try Self.write(counter, db, subject: subject) }
            return value
        }
    }

    /// The record as stored; never writes.
    static func read(_ db: Database, path: String, subject: String = subject, missingIsFresh: Bool = false) throws -> AttemptCounter {
        guard try db.tableExists("attempt") else {
            throw VaultError(.tampered, "The passcode attempt record of \(path) is missing (its table was dropped); failing closed: open the vault with its device key or recovery key and set the passcode again")
        }
        // Format 4 added the boot clock; an older file is read as it is.
        let clocked = try db.columns(in: "attempt").contains { $0.name == "delay_boot_id" }
        let columns = clocked ? "failures, delay_start, delay_duration, last_wrong, delay_boot_id, delay_boot_uptime"
            : "failures, delay_start, delay_duration, last_wrong"
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM attempt WHERE subject = ?", arguments: [subject]) else {
            if missingIsFresh { return AttemptCounter() }
            throw VaultError(.tampered, "The passcode attempt record of \(path) was deleted; failing closed: open the vault with its device key or recovery key and set the passcode again")
        }
        let edited = { (name: String) in
            VaultError(.tampered, "The passcode attempt record of \(path) was edited (its \(name) is unreadable); failing closed")
        }
        let fields = RowColumns(row: row, failure: edited)
        let failures: Int = try fields.value("failures")
        let start: Double? = try fields.optional("delay_start")
        let duration: Double? = try fields.optional("delay_duration")
        let lastWrong: Data? = try fields.optional("last_wrong")
        let bootID: String? = clocked ? try fields.optional("delay_boot_id") : nil
        let bootUptime: Double? = clocked ? try fields.optional("delay_boot_uptime") : nil
        let impossible = VaultError(.tampered, "The passcode attempt record of \(path) holds impossible values; failing closed")
        guard failures >= 0, (start == nil) == (duration == nil), (duration ?? 0) >= 0, (start ?? 0).isFinite, (duration ?? 0).isFinite,
              (bootID == nil) == (bootUptime == nil), (bootUptime ?? 0).isFinite, (bootUptime ?? 0) >= 0 else {
            throw impossible
        }
        let startBoot = bootID.map { BootInstant(bootID: $0, uptime: bootUptime ?? 0) }
        let delay = start.map { AttemptRecord.Delay(start: Date(timeIntervalSince1970: $0), duration: duration ?? 0, startBoot: startBoot) }
        var inFlight: [AttemptInFlight] = []
        if try db.tableExists("attempt_in_flight") {
            for row in try Row.fetchAll(db, sql: "SELECT token, pid, started, boot_id, boot_uptime FROM attempt_in_flight WHERE subject = ? ORDER BY started, token",
                                        arguments: [subject]) {
                let fields = RowColumns(row: row, failure: edited)
                let token: Int64 = try fields.value("token")
                let pid: Int64 = try fields.value("pid")
                let started: Double = try fields.value("started")
                let bootID: String? = try fields.optional("boot_id")
                let uptime: Double? = try fields.optional("boot_uptime")
                guard let processID = Int32(exactly: pid), started.isFinite, (bootID == nil) == (uptime == nil), (uptime ?? 0).isFinite, (uptime ?? 0) >= 0 else {
                    throw impossible
                }
                inFlight.append(AttemptInFlight(token: UInt64(bitPattern: token), processID: processID, started: Date(timeIntervalSince1970: started),
                                                startedBoot: bootID.map { BootInstant(bootID: $0, uptime: uptime ?? 0) }))
            }
        }
        return AttemptCounter(failures: failures, delay: delay, lastWrongEntry: lastWrong.map { Array($0) }, inFlight: inFlight)
    }

    static func write(_ counter: AttemptCounter, _ db: Database, subject: String = subject) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO attempt (subject, failures, delay_start, delay_duration, last_wrong, delay_boot_id, delay_boot_uptime)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [subject, counter.failures, counter.delay?.start.timeIntervalSince1970, counter.delay?.duration,
                        counter.lastWrongEntry.map { Data($0) }, counter.delay?.startBoot?.bootID, counter.delay?.startBoot?.uptime])
        try db.execute(sql: "DELETE FROM attempt_in_flight WHERE subject = ?", arguments: [subject])
        for entry in counter.inFlight {
            try db.execute(
                sql: "INSERT INTO attempt_in_flight (subject, token, pid, started, boot_id, boot_uptime) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [subject, Int64(bitPattern: entry.token), Int64(entry.processID), entry.started.timeIntervalSince1970,
                            entry.startedBoot?.bootID, entry.startedBoot?.uptime])
        }
    }

    /// A fresh record, written with a new or re-wrapped passcode slot.
    static func reset(_ db: Database) throws {
        try write(AttemptCounter(), db)
    }
}
