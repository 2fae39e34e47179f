#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A `ReuseWindowStore` in memory, timed by a clock the test controls.
///
/// It can be told to fail, to check that Sesame then does not reuse.
public final class InMemoryReuseWindowStore: ReuseWindowStore {
    private struct State {
        var success: (at: Date, domainState: DomainState?)?
        var failing = false
        var recordCount = 0
    }

    private let clock: any AuthenticationClock
    private let state = Locked(State())

    /// Creates an empty store.
    ///
    /// - Parameter clock: Times the successes, e.g. a ``ManualClock``.
    public init(clock: any AuthenticationClock) {
        self.clock = clock
    }

    /// Makes every later call throw (or work again).
    ///
    /// - Parameter failing: Whether calls throw.
    public func setFailing(_ failing: Bool) {
        state.withLock { $0.failing = failing }
    }

    /// How many successes were recorded so far.
    public var recordCount: Int {
        state.withLock { $0.recordCount }
    }

    public func recordSuccess(domainState: DomainState?) async throws {
        let now = clock.now()
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            state.success = (now, domainState)
            state.recordCount += 1
        }
    }

    public func lastSuccess() async throws -> ReuseWindowEntry? {
        let now = clock.now()
        return try state.withLock { state throws(Failure) -> ReuseWindowEntry? in
            if state.failing { throw Failure() }
            return state.success.map { ReuseWindowEntry(elapsed: now.timeIntervalSince($0.at), domainState: $0.domainState) }
        }
    }

    public func clear() async throws {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            state.success = nil
        }
    }

    private struct Failure: Error {}
}
