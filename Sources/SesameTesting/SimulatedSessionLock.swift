import Sesame

/// A session lock the test drives (SPEC D14): lock, unlock, sleep and wake,
/// a session that is not there, or no session manager at all.
///
/// Every ``states()`` sequence gets the state at once and then each change,
/// as logind's signals reach a process; ``stateReads`` counts how often the
/// vault asked, so a test can check that a class that needs no unlocked
/// session does not pay for one.
public final class SimulatedSessionLock: SessionLockMonitor {
    private struct State {
        var current: SessionLockState
        var markSinceBoot = false
        var watchers: [Int: AsyncStream<SessionLockState>.Continuation] = [:]
        var nextWatcher = 0
        var stateReads = 0
    }

    private let state: Locked<State>

    /// Creates an unlocked session, unlocked once since boot.
    ///
    /// - Parameter initial: The state to start in.
    public init(_ initial: SessionLockState = SessionLockState(.unlocked, session: "1", detail: "simulated session 1")) {
        state = Locked(State(current: initial, markSinceBoot: initial.unlockedSinceBoot))
    }

    /// The screen locker locks the session.
    public func lock() { set(.locked, detail: "simulated session 1 is locked") }

    /// The owner unlocks the session.
    public func unlock() { set(.unlocked, detail: "simulated session 1") }

    /// The machine is about to sleep (`PrepareForSleep(true)`).
    public func prepareForSleep() { set(.goingToSleep, detail: "the machine is going to sleep") }

    /// Moves to `condition`, telling every watcher.
    ///
    /// - Parameters:
    ///   - condition: The new condition.
    ///   - detail: Where the state came from.
    public func set(_ condition: SessionLockState.Condition, detail: String) {
        let watchers = state.withLock { state in
            if condition == .unlocked || condition == .unobserved { state.markSinceBoot = true }
            state.current = SessionLockState(condition, unlockedSinceBoot: state.markSinceBoot, session: "1", detail: detail)
            return (state.current, Array(state.watchers.values))
        }
        for watcher in watchers.1 { watcher.yield(watchers.0) }
    }

    /// A new boot: nothing unlocked since, and the session in `condition`.
    ///
    /// - Parameter condition: The state after the boot; locked by default.
    public func reboot(into condition: SessionLockState.Condition = .locked) {
        state.withLock { $0.markSinceBoot = false }
        set(condition, detail: "simulated session 1 after a boot")
    }

    /// How many times ``state()`` was asked.
    public var stateReads: Int { state.withLock { $0.stateReads } }

    public func state() async -> SessionLockState {
        state.withLock { state in
            state.stateReads += 1
            return state.current
        }
    }

    public func unlockedSinceBoot() async -> Bool {
        state.withLock { $0.markSinceBoot }
    }

    public func recordOwnerAuthentication() async {
        state.withLock { state in
            state.markSinceBoot = true
            state.current.unlockedSinceBoot = true
        }
    }

    public func states() -> AsyncStream<SessionLockState> {
        let (stream, continuation) = AsyncStream<SessionLockState>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = continuation
            continuation.yield(state.current)
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }
}
