#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a check of one entry found.
enum AttemptVerdict<Value: Sendable>: Sendable {
    /// The entry was right.
    case accepted(Value)
    /// The entry was wrong. `fingerprint` identifies it (keyed, as slow to
    /// attack as the check itself) so that the same wrong entry typed again
    /// counts once; `nil` counts every time.
    case rejected(fingerprint: [UInt8]?)
    /// Nothing was checked (the person cancelled before entering anything).
    case notChecked
}

/// How an attempt through the gate ended.
enum AttemptOutcome<Value: Sendable>: Sendable {
    /// The entry was right; the count is cleared.
    case accepted(Value)
    /// The entry was wrong and stays counted; `delayedUntil` is the delay it
    /// started, if the schedule calls for one.
    case rejected(delayedUntil: Date?)
    /// A delay was running: nothing was checked.
    case refused(until: Date)
    /// The check did not look at an entry; the attempt was given back.
    case notChecked
}

/// The one attempt gate (SPEC E3, E5): every check of a passcode — the
/// vault's passcode slot, an app passcode, the device passcode — runs
/// through it.
///
/// An attempt is counted *before* it is checked, under the ledger's
/// exclusive lock, together with the delay that would follow if it were
/// wrong. So however many processes guess at once, no more checks run than
/// the schedule allows, a crash (or `kill -9`) in the middle of a check
/// leaves it counted, and a running delay refuses every process without
/// checking anything. A right entry then clears the count; a wrong one stays.
struct AttemptGate: Sendable {
    let ledger: any AttemptLedger
    let schedule: BackoffSchedule
    let clock: any AuthenticationClock

    /// Counts an attempt, runs `check` unless a delay refuses it, and settles.
    ///
    /// - Parameters:
    ///   - ledgerFailure: Turns a ledger error into the caller's error.
    ///   - check: Checks the entry; runs at most once, and only after the
    ///     attempt is stored. An error it throws leaves the attempt counted.
    /// - Returns: How the attempt ended.
    /// - Throws: The check's error, or the ledger's as `ledgerFailure` made it.
    func attempt<Value: Sendable, Failure: Error>(
        ledgerFailure: (any Error) -> Failure,
        _ check: () async throws(Failure) -> AttemptVerdict<Value>
    ) async throws(Failure) -> AttemptOutcome<Value> {
        let schedule = self.schedule
        let countedAt = clock.now()
        let refusedUntil: Date? = try await settle(ledgerFailure) { counter in
            counter.delay?.rebase(at: countedAt)
            if let end = counter.delay?.end(at: countedAt) { return end }
            counter.failures += 1
            // Pessimistically: the delay this attempt starts if it is wrong, so
            // nobody else is checked meanwhile once the schedule says stop.
            counter.delay = Self.delay(schedule, failures: counter.failures, from: countedAt)
            return nil
        }
        if let refusedUntil { return .refused(until: refusedUntil) }

        switch try await check() {
        case .accepted(let value):
            try await settle(ledgerFailure) { counter in counter = AttemptCounter() }
            return .accepted(value)
        case .notChecked:
            try await settle(ledgerFailure) { counter in Self.giveBack(&counter, schedule: schedule) }
            return .notChecked
        case .rejected(let fingerprint):
            let settledAt = clock.now()
            let delayedUntil: Date? = try await settle(ledgerFailure) { counter in
                if let fingerprint, let last = counter.lastWrongEntry, ConstantTime.equals(last, fingerprint) {
                    // The same wrong entry again is one mistake, not two.
                    Self.giveBack(&counter, schedule: schedule)
                } else if let fingerprint {
                    counter.lastWrongEntry = fingerprint
                }
                return counter.delay?.end(at: settledAt)
            }
            return .rejected(delayedUntil: delayedUntil)
        }
    }

    /// The delay the schedule sets after `failures`, starting `now`.
    private static func delay(_ schedule: BackoffSchedule, failures: Int, from now: Date) -> AttemptRecord.Delay? {
        let seconds = schedule.delay(afterFailures: failures)
        return seconds > 0 ? AttemptRecord.Delay(start: now, duration: seconds) : nil
    }

    /// Takes back one counted attempt. The delay stays unless the lower count
    /// calls for none: another process may have counted meanwhile.
    private static func giveBack(_ counter: inout AttemptCounter, schedule: BackoffSchedule) {
        counter.failures = max(0, counter.failures - 1)
        if schedule.delay(afterFailures: counter.failures) == 0 { counter.delay = nil }
    }

    private func settle<Result: Sendable, Failure: Error>(
        _ ledgerFailure: (any Error) -> Failure, _ change: @escaping @Sendable (inout AttemptCounter) -> Result
    ) async throws(Failure) -> Result {
        do {
            return try await ledger.update(change)
        } catch {
            throw ledgerFailure(error)
        }
    }
}
