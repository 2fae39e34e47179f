#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// The passcode slot behind the attempt gate (SPEC E3, E5).
extension VaultSlots {
    /// The delays after wrong vault passcodes: iOS's (SPEC E3).
    static let passcodeBackoff = BackoffSchedule.standard

    /// Counts the attempt in the vault file, then opens the slot with
    /// `passcode` unless a delay refuses it.
    static func openPasscodeSlot(
        _ slot: SlotRecord, passcode: SecretBytes, vaultID: [UInt8], database: VaultDatabase, path: String,
        clock: any AuthenticationClock, passcodeGuard: (any PasscodeGuard)? = nil
    ) async throws(VaultError) -> SymmetricKey {
        guard let cost = slot.cost else { throw VaultError(.locked, "\(path) has no passcode slot") }
        do {
            // A vault from before format 2 gets its attempt record first.
            try database.migrate()
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
        let gate = AttemptGate(ledger: PasscodeSlotLedger(database: database, path: path), schedule: passcodeBackoff, clock: clock)
        let outcome = try await gate.attempt(ledgerFailure: { VaultError(databaseError: $0, path: path) }) {
            () throws(VaultError) -> AttemptVerdict<SymmetricKey> in
            var wrappingKey = try await SlotRecord.passcodeWrappingKey(passcode, salt: slot.salt, cost: cost)
            // Counted already: the hardware is asked only after the gate let this attempt through.
            if let passcodeGuard {
                switch try await guardAnswer(passcodeGuard, slot: slot.salt, value: SlotRecord.guardValue(wrappingKey, salt: slot.salt)) {
                case .notBound: break
                case .released(let secret): wrappingKey = SlotRecord.guardedWrappingKey(wrappingKey, secret: secret, salt: slot.salt)
                case .refused: return .rejected(fingerprint: nil)
                }
            }
            do throws(VaultError) {
                return .accepted(try slot.open(wrappingKey: wrappingKey, vaultID: vaultID, path: path))
            } catch where error.status == .authFailed {
                return .rejected(fingerprint: nil)
            }
        }
        if case .accepted(let masterKey) = outcome { return masterKey }
        throw VaultError(refused: outcome, secret: "passcode", of: path, wrong: "Wrong passcode for \(path) (or its passcode slot was edited)")
    }

    /// The guard's answer, its failures as vault errors (a hardware lockout
    /// keeps its `retryAfter`).
    private static func guardAnswer(_ passcodeGuard: any PasscodeGuard, slot: [UInt8], value: SecretBytes) async throws(VaultError) -> PasscodeGuardAnswer {
        do {
            return try await passcodeGuard.secret(slot: slot, value: value)
        } catch let error as any DeviceKeyStoreError {
            throw VaultError(error)
        } catch {
            throw VaultError(.ioError, "The passcode's hardware check failed: \(error)")
        }
    }

    /// The passcode slot's attempt record, read without unlocking and
    /// without counting: for `sesame status` and passcode pads. Never writes.
    ///
    /// - Parameters:
    ///   - path: The vault file.
    ///   - clock: The current time, for the delay.
    /// - Returns: Wrong passcodes in a row (including any being checked right
    ///   now) and when the running delay ends; `nil` when the vault has no
    ///   passcode slot, or comes from before attempt records (format 1).
    /// - Throws: ``VaultError`` with `tampered` (the record was deleted or
    ///   edited), `insecurePermissions`, `damaged`, `ioError`.
    public static func passcodeAttempts(at path: String, clock: any AuthenticationClock = SystemClock()) async throws(VaultError) -> PasscodeAttempts? {
        let database = try Vault.openExisting(path)
        let counter: AttemptCounter?
        do {
            counter = try await database.read { db -> AttemptCounter? in
                let format = try Vault.readFormat(db, path: path)
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM slot WHERE kind = ?", arguments: [PasscodeSlotLedger.subject]) == true else {
                    return nil
                }
                // Format 1 had no record yet; from format 2 a missing one was deleted.
                if format < 2, try !db.tableExists("attempt") { return nil }
                return try PasscodeSlotLedger.read(db, path: path)
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
        guard let counter else { return nil }
        let reading = AttemptReading(clock)
        var delay = counter.delay
        let delayedUntil: Date? = if case .running(let remaining, _) = delay?.measure(at: reading) {
            reading.wall.addingTimeInterval(remaining)
        } else {
            nil
        }
        return PasscodeAttempts(consecutiveFailures: counter.failures + counter.inFlight.count, delayedUntil: delayedUntil)
    }
}
