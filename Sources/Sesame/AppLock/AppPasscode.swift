#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// The app's own passcode (SPEC E3, E4): stored only as a salted scrypt
/// hash, with escalating delays after wrong entries that survive restarts.
///
/// ```swift
/// let passcode = AppPasscode(appIdentifier: "com.example.notes", store: FileAppRecordStore(directory: dir, kind: .appPasscode))
/// try await passcode.set(SecretBytes(utf8: "482913"))
/// switch await passcode.verify(entered) { case .accepted: unlock() … }
/// ```
///
/// - Wrong entries in a row start the ``BackoffSchedule`` delays (iOS's by
///   default); while a delay runs, nothing is checked. The history is kept in
///   the record, so restarting the app does not reset it, and a clock set back
///   restarts a delay instead of shortening it.
/// - Typing the same wrong passcode twice in a row counts once.
/// - Changing, removing and the erase setting need the current passcode and
///   go through the same counting and delays.
/// - Every operation runs one at a time; scrypt (about 0.3 s of one core at
///   ``AppPasscodeCost/standard``) runs on a Dispatch thread, off Swift's
///   cooperative pool.
public final class AppPasscode: AppPasscodeVerifier {
    /// Consecutive wrong entries after which the optional erase happens.
    public static let failuresBeforeErase = 10

    /// The app whose record this is.
    public let appIdentifier: String
    /// The cost new hashes are made with; older hashes are upgraded on the next right entry.
    public let cost: AppPasscodeCost
    let store: any AppRecordStore
    let clock: any AuthenticationClock
    let backoff: BackoffSchedule
    let onErase: (@Sendable () async -> Void)?
    let turns = TurnQueue()

    /// Creates the passcode of one app.
    ///
    /// - Parameters:
    ///   - appIdentifier: Names the app's record.
    ///   - store: Where the record is kept.
    ///   - cost: The scrypt cost for new hashes; ``AppPasscodeCost/standard``
    ///     by default. Tests pass a low one, e.g. `N = 2^8`.
    ///   - clock: Wall-clock time for the delays.
    ///   - backoff: The delays after wrong entries; iOS's by default.
    ///   - onErase: Erases the data the passcode protects; called after the
    ///     tenth wrong entry in a row when that setting is on, before the
    ///     passcode is removed. Without it the setting cannot be switched
    ///     on, and a record that has it on only delays: the passcode is never
    ///     removed while the data it guards stays.
    public init(
        appIdentifier: String,
        store: any AppRecordStore,
        cost: AppPasscodeCost = .standard,
        clock: any AuthenticationClock = SystemClock(),
        backoff: BackoffSchedule = .standard,
        onErase: (@Sendable () async -> Void)? = nil
    ) {
        self.appIdentifier = appIdentifier
        self.store = store
        self.cost = cost
        self.clock = clock
        self.backoff = backoff
        self.onErase = onErase
    }

    // MARK: Queries (never count as attempts)

    public func currentState() async -> PasscodeState {
        do throws(AppPasscodeError) {
            return try await load() == nil ? .notSet(UnavailableReason(.notConfigured, "No app passcode is set")) : .set
        } catch {
            // A damaged record still means a passcode was set: report it as
            // set so the app keeps its cover; verify then reports the damage.
            return .set
        }
    }

    /// The attempt history and delay, for a passcode pad. Never counts as an attempt.
    ///
    /// - Returns: The status, or `nil` when no passcode is set.
    /// - Throws: ``AppPasscodeError/storage(_:)`` when the record is unusable.
    public func status() async throws(AppPasscodeError) -> AppPasscodeStatus? {
        guard let record = try await load(), let recordCost = record.hash.cost else {
            return nil
        }
        let reading = AttemptReading(clock)
        var delay = record.delay
        let delayedUntil: Date? = if case .running(let remaining, _) = delay?.measure(at: reading) {
            reading.wall.addingTimeInterval(remaining)
        } else {
            nil
        }
        let failures = record.failures
        let attemptsBeforeDelay = (1...max(backoff.delays.count, 1)).first { backoff.delay(afterFailures: failures + $0) > 0 }
        return AppPasscodeStatus(
            consecutiveFailures: failures,
            delayedUntil: delayedUntil,
            attemptsBeforeDelay: attemptsBeforeDelay,
            erasesAfterTenFailures: record.eraseAfterTenFailures,
            attemptsBeforeErase: record.eraseAfterTenFailures ? max(Self.failuresBeforeErase - failures, 0) : nil,
            cost: recordCost
        )
    }

    // MARK: Verification

    public func verify(_ passcode: SecretBytes) async -> PasscodeVerification {
        await turns.run(joining: nil) {
            switch await self.check(passcode) {
            case .success: .accepted
            case .failure(.wrongPasscode): .rejected
            case .failure(.delayed(let until)): .delayed(until: until)
            case .failure(.notSet): .unavailable(UnavailableReason(.notConfigured, "No app passcode is set"))
            case .failure(.erased): .unavailable(UnavailableReason(.notConfigured, AppPasscodeError.erased.description))
            case .failure(let error): .unavailable(UnavailableReason(.stateUnavailable, error.description))
            }
        }
    }

    /// Checks `passcode` through the attempt gate (SPEC E3, E5): counted
    /// before it is checked, in the record every process shares; refused
    /// unchecked while a delay runs. Run in a turn of ``turns``.
    ///
    /// - Returns: The record after a right entry (already saved), or why not.
    func check(_ passcode: SecretBytes) async -> Result<AppPasscodeRecord, AppPasscodeError> {
        do throws(AppPasscodeError) {
            guard let record = try await load() else { return .failure(.notSet) }
            let attempts = AttemptGate(ledger: AppPasscodeLedger(store: store, appIdentifier: appIdentifier), schedule: backoff, clock: clock)
            let outcome = try await attempts.attempt(ledgerFailure: { ($0 as? AppPasscodeError) ?? .storage("\($0)") }) {
                () async throws(AppPasscodeError) -> AttemptVerdict<Void> in
                let derived: SymmetricKey
                do {
                    derived = try await record.hash.derive(passcode)
                } catch {
                    throw .storage("the passcode cannot be hashed (\(error))")
                }
                return record.hash.matches(derived) ? .accepted(()) : .rejected(fingerprint: Array(record.fingerprint(of: derived)))
            }
            switch outcome {
            case .accepted:
                return .success(try await upgradeCost(passcode))
            case .rejected(let delayedUntil):
                if let erased = try await eraseIfDue() { return .failure(erased) }
                return .failure(delayedUntil.map { .delayed(until: $0) } ?? .wrongPasscode)
            case .refused(let until, _), .clockDisagrees(let until):
                return .failure(.delayed(until: until))
            case .checksInFlight(let count):
                return .failure(.storage("\(count) other checks of this passcode did not finish; nothing was checked"))
            case .notChecked:
                return .failure(.wrongPasscode)
            }
        } catch {
            return .failure(error)
        }
    }

    /// After a right entry, the only moment the passcode is at hand: re-hash
    /// it when the record's cost is not this ``cost``.
    private func upgradeCost(_ passcode: SecretBytes) async throws(AppPasscodeError) -> AppPasscodeRecord {
        guard var record = try await load() else { throw .notSet }
        if record.hash.cost != cost, let upgraded = try? await PasscodeHash.make(passcode, cost: cost) {
            record.hash = upgraded
            try await save(record)
        }
        return record
    }

    /// The erase-after-10 setting (SPEC E3): erases once the count reaches
    /// ``failuresBeforeErase``. Erase first: if the process dies in between,
    /// the passcode still guards erased data, never the other way round.
    private func eraseIfDue() async throws(AppPasscodeError) -> AppPasscodeError? {
        guard let record = try await load(), record.eraseAfterTenFailures, record.failures >= Self.failuresBeforeErase,
              let onErase else { return nil }
        await onErase()
        try await removeRecord()
        return .erased
    }

    // MARK: The record

    func load() async throws(AppPasscodeError) -> AppPasscodeRecord? {
        let bytes: [UInt8]?
        do {
            bytes = try await store.load(appIdentifier: appIdentifier)
        } catch {
            throw .storage("\(error)")
        }
        guard let bytes else { return nil }
        return try AppPasscodeRecord.decode(bytes)
    }

    func save(_ record: AppPasscodeRecord) async throws(AppPasscodeError) {
        let bytes = try record.encoded()
        do {
            try await store.save(bytes, appIdentifier: appIdentifier)
        } catch {
            throw .storage("\(error)")
        }
    }

    func removeRecord() async throws(AppPasscodeError) {
        do {
            try await store.remove(appIdentifier: appIdentifier)
        } catch {
            throw .storage("\(error)")
        }
    }
}
