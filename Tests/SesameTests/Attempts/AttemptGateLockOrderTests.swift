import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// The gate reads the clocks under the ledger's lock (SPEC E5). A process
/// that read them before waiting for the lock could hold a reading older
/// than an attempt another process counted meanwhile, and that attempt would
/// look as if it began in the future: settled as abandoned, so wrong.
@Suite("SPEC E5: attempts counted while another process waited for the lock are not abandoned")
struct AttemptGateLockOrderTests {
    /// A ledger whose first update is preceded by another (live) process
    /// counting an attempt a second later: what a process sees when it waits
    /// for the lock while others go first.
    final class OvertakenLedger: AttemptLedger, @unchecked Sendable {
        let clock: ManualClock
        let inner = MemoryAttemptLedger()
        private let overtaken = Locked(false)

        init(clock: ManualClock) { self.clock = clock }

        func update<Value: Sendable>(_ change: @escaping @Sendable (inout AttemptCounter) -> Value) async throws -> Value {
            if !overtaken.withLock({ let first = !$0; $0 = true; return first }) {
                return try await inner.update(change)
            }
            clock.advance(by: 1)
            let clock = self.clock
            _ = try await inner.update { counter in
                // This test process is alive, so only the clocks could make it look abandoned.
                counter.inFlight.append(AttemptInFlight(token: 42, processID: getpid(), started: clock.now(), startedBoot: clock.bootInstant()))
            }
            return try await inner.update(change)
        }

        func counter() async throws -> AttemptCounter { try await inner.update { $0 } }
    }

    @Test("SPEC E5: a wrong entry counts once, and an attempt counted while this one waited for the lock stays in flight, not wrong")
    func readingUnderTheLock() async throws {
        let clock = ManualClock()
        let ledger = OvertakenLedger(clock: clock)
        let gate = AttemptGate(ledger: ledger, schedule: .standard, clock: clock)
        let outcome = try await gate.attempt(ledgerFailure: { $0 }) { () throws(any Error) -> AttemptVerdict<Void> in
            .rejected(fingerprint: nil)
        }
        guard case .rejected = outcome else {
            Issue.record("the wrong entry is rejected: \(outcome)")
            return
        }
        let counter = try await ledger.counter()
        #expect(counter.failures == 1, "only this wrong entry counts; the other process's attempt is not settled as wrong")
        #expect(counter.inFlight.map(\.token) == [42], "it is still in flight")
    }
}
