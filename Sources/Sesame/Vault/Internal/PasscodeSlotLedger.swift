#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// The attempt record of a vault's passcode slot: one row of the `attempt`
/// table in the vault file itself (SPEC E5). The slot is what is limited:
/// there is no second hash of the passcode anywhere.
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

    func update<Value: Sendable>(_ change: @escaping @Sendable (inout AttemptCounter) -> Value) async throws -> Value {
        let path = self.path
        return try await database.write { db in
            var counter = try Self.read(db, path: path)
            let value = change(&counter)
            try Self.write(counter, db)
            return value
        }
    }

    /// The record as stored; never writes.
    static func read(_ db: Database, path: String) throws -> AttemptCounter {
        guard try db.tableExists("attempt") else {
            throw VaultError(.tampered, "The passcode attempt record of \(path) is missing (its table was dropped); failing closed: open the vault with its device key or recovery key and set the passcode again")
        }
        guard let row = try Row.fetchOne(db, sql: "SELECT failures, delay_start, delay_duration, last_wrong FROM attempt WHERE subject = ?",
                                         arguments: [subject]) else {
            throw VaultError(.tampered, "The passcode attempt record of \(path) was deleted; failing closed: open the vault with its device key or recovery key and set the passcode again")
        }
        let columns = RowColumns(row: row) { name in
            VaultError(.tampered, "The passcode attempt record of \(path) was edited (its \(name) is unreadable); failing closed")
        }
        let failures: Int = try columns.value("failures")
        let start: Double? = try columns.optional("delay_start")
        let duration: Double? = try columns.optional("delay_duration")
        let lastWrong: Data? = try columns.optional("last_wrong")
        guard failures >= 0, (start == nil) == (duration == nil), (duration ?? 0) >= 0, (start ?? 0).isFinite, (duration ?? 0).isFinite else {
            throw VaultError(.tampered, "The passcode attempt record of \(path) holds impossible values; failing closed")
        }
        let delay = start.map { AttemptRecord.Delay(start: Date(timeIntervalSince1970: $0), duration: duration ?? 0) }
        return AttemptCounter(failures: failures, delay: delay, lastWrongEntry: lastWrong.map { Array($0) })
    }

    static func write(_ counter: AttemptCounter, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO attempt (subject, failures, delay_start, delay_duration, last_wrong) VALUES (?, ?, ?, ?, ?)",
            arguments: [subject, counter.failures, counter.delay?.start.timeIntervalSince1970, counter.delay?.duration,
                        counter.lastWrongEntry.map { Data($0) }])
    }

    /// A fresh record, written with a new or re-wrapped passcode slot.
    static func reset(_ db: Database) throws {
        try write(AttemptCounter(), db)
    }
}
