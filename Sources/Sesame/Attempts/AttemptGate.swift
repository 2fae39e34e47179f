#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a check of one entry found.
package enum AttemptVerdict<Value: Sendable>: Sendable {
    /// The entry was right.
    case accepted(Value)
    /// The entry was wrong. `fingerprint` identifies it (keyed, as slow to
    /// attack as the check itself) so that the same wrong entry typed again
    /// counts once; `nil` counts every time.
    case rejected(fingerprint: [UInt8]?)
    /// Nothing was checked (the person cancelled before entering anything).
    case notChecked
}

/// How an attempt through the gate ended. Each refusal names its true reason.
package enum AttemptOutcome<Value: Sendable>: Sendable {
    /// The entry was right; the count is cleared.
    case accepted(Value)
    /// The entry was wrong and stays counted; `delayedUntil` is the delay it
    /// started, if the schedule calls for one.
    case rejected(delayedUntil: Date?)
    /// A delay was running after `failures` wrong entries: nothing was checked.
    case refused(until: Date, failures: Int)
    /// A delay was running and the caller's wall clock disagrees with the
    /// ledger's (it was set or is faked): nothing was checked. `until` is
    /// measured on the boot clock, shown on the caller's wall clock.
    case clockDisagrees(until: Date)
    /// Other checks still in flight did not finish within the wait bound:
    /// nothing was checked, nothing counted.
    case checksInFlight(count: Int)
    /// The check did not look at an entry; the attempt was given back.
    case notChecked
}

/// The one attempt gate (SPEC E3, E5): every check of a passcode — the
/// vault's passcode slot, an app passcode, the device passcode, an item's
/// application password — runs through it.
///
/// An attempt is counted *before* it is checked, under the ledger's
/// exclusive lock, as an attempt in flight. An attempt that could only be
/// refused because of checks still in flight (were they all wrong, the
/// schedule would call for a delay) waits for them instead, so however many
/// processes guess at once no more checks run than the schedule allows, and
/// honest parallel work is not refused. A process that dies mid-check
/// (`kill -9`) leaves its attempt in flight, and the next attempt settles it
/// as wrong. Delays are measured on the kernel's boot clock, so a process
/// that sets or fakes its wall clock ends none early.
package struct AttemptGate: Sendable {
    let ledger: any AttemptLedger
    let schedule: BackoffSchedule
    let clock: any AuthenticationClock
    /// An attempt in flight longer than this is settled as wrong (its
    /// process may have hung or its pid been reused).
    var staleAfter: TimeInterval = 300

    package init(ledger: any AttemptLedger, schedule: BackoffSchedule, clock: any AuthenticationClock, staleAfter: TimeInterval = 300) {
        self.ledger = ledger
        self.schedule = schedule
        self.clock = clock
        self.staleAfter = staleAfter
    }

    private enum Admission: Sendable {
        case check
        case wait(inFlight: Int)
        case refused(remaining: TimeInterval, failures: Int, clockDisagrees: Bool)
    }

    /// Counts an attempt, runs `check` unless a delay refuses it, and settles.
    ///
    /// - Parameters:
    ///   - ledgerFailure: Turns a ledger error into the caller's error.
    ///   - check: Checks the entry; runs at most once, and only after the
    ///     attempt is stored. An error it throws counts the attempt as wrong.
    /// - Returns: How the attempt ended.
    /// - Throws: The check's error, or the ledger's as `ledgerFailure` made it.
    package func attempt<Value: Sendable, Failure: Error>(
        ledgerFailure: (any Error) -> Failure,
        _ check: () async throws(Failure) -> AttemptVerdict<Value>
    ) async throws(Failure) -> AttemptOutcome<Value> {
        let schedule = self.schedule
        let staleAfter = self.staleAfter
        let mine = AttemptInFlight(token: UInt64.random(in: 1...UInt64.max), processID: AttemptReading.processID,
                                   started: clock.now(), startedBoot: clock.bootInstant())
        var pause: UInt64 = 10_000_000
        var waited: UInt64 = 0
        let clock = self.clock
        while true {
            // Read the clocks under the ledger's lock, not before waiting for
            // it: a reading taken earlier can be older than an entry another
            // process appended meanwhile, and that entry would look as if it
            // began in the future and be settled as abandoned (wrong).
            let (admission, reading): (Admission, AttemptReading) = try await settle(ledgerFailure) { counter in
                let reading = AttemptReading(clock)
                return (Self.admit(&counter, mine: mine, at: reading, schedule: schedule, staleAfter: staleAfter), reading)
            }
            switch admission {
            case .check:
                break
            case .refused(let remaining, let failures, let disagrees):
                let until = reading.wall.addingTimeInterval(remaining)
                return disagrees ? .clockDisagrees(until: until) : .refused(until: until, failures: failures)
            case .wait(let count):
                // Bounded: every check in flight settles, dies or goes stale by then.
                guard Double(waited) / 1e9 < staleAfter + 5 else { return .checksInFlight(count: count) }
                do {
                    try await Task.sleep(nanoseconds: pause)
                } catch {
                    return .checksInFlight(count: count)
                }
                waited += pause
                pause = min(pause * 2, 200_000_000)
                continue
            }
            break
        }

        let verdict: AttemptVerdict<Value>
        do {
            verdict = try await check()
        } catch {
            _ = try await settleWrong(ledgerFailure, token: mine.token, fingerprint: nil)
            throw error
        }
        switch verdict {
        case .accepted(let value):
            try await settle(ledgerFailure) { counter in
                counter.inFlight.removeAll { $0.token == mine.token }
                counter.failures = 0
                counter.delay = nil
                counter.lastWrongEntry = nil
            }
            return .accepted(value)
        case .notChecked:
            try await settle(ledgerFailure) { counter in counter.inFlight.removeAll { $0.token == mine.token } }
            return .notChecked
        case .rejected(let fingerprint):
            return .rejected(delayedUntil: try await settleWrong(ledgerFailure, token: mine.token, fingerprint: fingerprint))
        }
    }

    /// Admits `mine` to be checked, refuses it (a delay runs), or tells it to
    /// wait for checks in flight; under the ledger's lock.
    private static func admit(
        _ counter: inout AttemptCounter, mine: AttemptInFlight, at reading: AttemptReading, schedule: BackoffSchedule, staleAfter: TimeInterval
    ) -> Admission {
        Self.settleAbandoned(&counter, at: reading, schedule: schedule, staleAfter: staleAfter)
        if var delay = counter.delay {
            let state = delay.measure(at: reading)
            counter.delay = delay
            if case .running(let remaining, let disagrees) = state {
                return .refused(remaining: remaining, failures: counter.failures, clockDisagrees: disagrees)
            }
        }
        let pending = counter.inFlight.count
        if pending > 0, schedule.delay(afterFailures: counter.failures + pending) > 0 {
            return .wait(inFlight: pending)
        }
        var entry = mine
        entry.started = reading.wall
        entry.startedBoot = reading.boot
        counter.inFlight.append(entry)
        return .check
    }

    /// Settles this process's attempt as wrong; returns the delay's end.
    private func settleWrong<Failure: Error>(
        _ ledgerFailure: (any Error) -> Failure, token: UInt64, fingerprint: [UInt8]?
    ) async throws(Failure) -> Date? {
        let schedule = self.schedule
        let clock = self.clock
        // The clocks are read under the lock, as at admission.
        let (remaining, reading): (TimeInterval?, AttemptReading) = try await settle(ledgerFailure) { counter in
            let reading = AttemptReading(clock)
            let wasInFlight = counter.inFlight.contains { $0.token == token }
            counter.inFlight.removeAll { $0.token == token }
            // Not in flight any more: another process settled it as abandoned, counted already.
            if wasInFlight {
                if let fingerprint, let last = counter.lastWrongEntry, ConstantTime.equals(last, fingerprint) {
                    // The same wrong entry again is one mistake, not two.
                } else {
                    if let fingerprint { counter.lastWrongEntry = fingerprint }
                    Self.countWrong(&counter, at: reading, schedule: schedule)
                }
            }
            guard var delay = counter.delay else { return (nil, reading) }
            let state = delay.measure(at: reading)
            counter.delay = delay
            if case .running(let remaining, _) = state { return (remaining, reading) }
            return (nil, reading)
        }
        return remaining.map { reading.wall.addingTimeInterval($0) }
    }

    /// One more wrong attempt, and the delay the schedule sets after it,
    /// starting now on both clocks.
    private static func countWrong(_ counter: inout AttemptCounter, at reading: AttemptReading, schedule: BackoffSchedule) {
        counter.failures += 1
        let seconds = schedule.delay(afterFailures: counter.failures)
        if seconds > 0 {
            counter.delay = AttemptRecord.Delay(start: reading.wall, duration: seconds, startBoot: reading.boot)
        }
    }

    /// Attempts in flight whose process died, or that went stale, count as wrong.
    private static func settleAbandoned(_ counter: inout AttemptCounter, at reading: AttemptReading, schedule: BackoffSchedule, staleAfter: TimeInterval) {
        let abandoned = counter.inFlight.filter { $0.isAbandoned(at: reading, staleAfter: staleAfter) }
        guard !abandoned.isEmpty else { return }
        counter.inFlight.removeAll { entry in abandoned.contains { $0.token == entry.token } }
        for _ in abandoned { countWrong(&counter, at: reading, schedule: schedule) }
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
