import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// The gate's delays on the boot clock (SPEC E3) and its attempts in flight
/// (SPEC E5), with a ``ManualClock`` whose wall clock can be set apart from
/// its boot clock, and rebooted.
@Suite("SPEC E3, E5: the attempt gate's clocks and attempts in flight")
struct AttemptGateClockTests {
    let clock = ManualClock()
    let ledger = MemoryAttemptLedger()
    var gate: AttemptGate { AttemptGate(ledger: ledger, schedule: .standard, clock: clock) }

    private func guess(_ right: Bool = false) async throws -> AttemptOutcome<Void> {
        try await gate.attempt(ledgerFailure: { $0 }) { () throws(any Error) -> AttemptVerdict<Void> in
            right ? .accepted(()) : .rejected(fingerprint: nil)
        }
    }

    private func fiveWrong() async throws {
        for _ in 0..<5 { _ = try await guess() }
        guard case .refused(_, 5) = try await guess(true) else {
            Issue.record("after five wrong entries the delay refuses")
            return
        }
    }

    @Test("SPEC E3: a wall clock set forward by days ends no delay; the refusal says the clock disagrees, and its end is sane")
    func wallClockForward() async throws {
        try await fiveWrong()
        clock.setWallClock(by: 3 * 86400)
        guard case .clockDisagrees(let until) = try await guess(true) else {
            Issue.record("a faked wall clock must not end the delay")
            return
        }
        let remaining = until.timeIntervalSince(clock.now())
        #expect(remaining > 0 && remaining <= 60, "the end shown is at most the delay away from the caller's now")
        clock.advance(by: 61)
        guard case .accepted = try await guess(true) else {
            Issue.record("the delay ends when the boot clock says so")
            return
        }
    }

    @Test("SPEC E3: a wall clock set back neither shortens nor ends a delay")
    func wallClockBack() async throws {
        try await fiveWrong()
        clock.setWallClock(by: -86400)
        clock.advance(by: 30)
        guard case .clockDisagrees(let until) = try await guess(true) else {
            Issue.record("still running after 30 of 60 seconds")
            return
        }
        #expect(abs(until.timeIntervalSince(clock.now()) - 30) < 1)
        clock.advance(by: 31)
        guard case .accepted = try await guess(true) else {
            Issue.record("over after 61 seconds on the boot clock")
            return
        }
    }

    @Test("SPEC E3: after a reboot only the time since this boot began counts, whatever the wall clock claims")
    func bootIDChange() async throws {
        try await fiveWrong()
        clock.reboot(downtime: 86400, uptime: 10)
        guard case .refused(let until, _) = try await guess(true) else {
            Issue.record("10 seconds since boot do not end a 60-second delay, a day of wall clock notwithstanding")
            return
        }
        #expect(abs(until.timeIntervalSince(clock.now()) - 50) < 1)
        clock.reboot(uptime: 5)
        guard case .refused = try await guess(true) else {
            Issue.record("a second reboot keeps only the time since it")
            return
        }
        clock.advance(by: 56)
        guard case .accepted = try await guess(true) else {
            Issue.record("61 seconds since boot end the delay")
            return
        }
    }

    @Test("SPEC E3: a delay from a record without boot-clock times restarts in full (fail closed)")
    func legacyDelayRestarts() async throws {
        let old = AttemptRecord.Delay(start: clock.now().addingTimeInterval(-3000), duration: 3600)
        _ = try await ledger.update { $0 = AttemptCounter(failures: 9, delay: old) }
        guard case .refused(let until, 9) = try await guess(true) else {
            Issue.record("an old delay is not lifted")
            return
        }
        #expect(abs(until.timeIntervalSince(clock.now()) - 3600) < 1)
    }

    @Test("SPEC E5: an attempt blocked only by checks in flight waits for them instead of being refused")
    func waitsForChecksInFlight() async throws {
        let release = AsyncStream<Void>.makeStream()
        let started = Locked(0)
        let gate = self.gate
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let outcome = try await gate.attempt(ledgerFailure: { $0 }) { () throws(any Error) -> AttemptVerdict<Void> in
                        started.withLock { $0 += 1 }
                        try? await Task.sleep(nanoseconds: 50_000_000)
                        return .accepted(())
                    }
                    if case .accepted = outcome { return true }
                    return false
                }
            }
            release.continuation.finish()
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0 }, "eight right entries at once all pass")
        #expect(started.withLock { $0 } == 8)
    }

    @Test("SPEC E5: an attempt in flight whose process is gone (kill -9 mid-check) is settled as wrong")
    func deadProcessSettledWrong() async throws {
        let dead = AttemptInFlight(token: 7, processID: 0, started: clock.now(), startedBoot: clock.bootInstant())
        _ = try await ledger.update { $0 = AttemptCounter(failures: 4, inFlight: [dead]) }
        guard case .refused(_, 5) = try await guess(true) else {
            Issue.record("the dead check counts as the fifth wrong attempt and starts the delay")
            return
        }
    }
}
