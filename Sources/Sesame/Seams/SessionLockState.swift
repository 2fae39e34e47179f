/// Whether the owner's session is locked, as a ``SessionLockMonitor`` saw it
/// (SPEC D14).
public struct SessionLockState: Sendable, Hashable, Codable {
    /// What the session manager said.
    public enum Condition: String, Sendable, Hashable, Codable, CaseIterable {
        /// The session is unlocked.
        case unlocked
        /// The screen locker locked the session (logind's `LockedHint`).
        case locked
        /// The machine is about to sleep; treated as locked, as screen
        /// lockers lock before sleep.
        case goingToSleep
        /// The session manager answers but the owner has no session on it
        /// (nobody logged in: a timer, a lingering service). Treated as
        /// locked: nobody is there to have unlocked.
        case noSession
        /// No session manager answers (no system bus, or no logind on it: a
        /// container, a minimal server). Nothing can lock a session there,
        /// so it is treated as unlocked, and said so wherever the state is
        /// shown; ``SessionLockState/detail`` says why.
        case unobserved
    }

    /// What the session manager said.
    public var condition: Condition
    /// Whether the owner unlocked, or authenticated, at least once since boot.
    public var unlockedSinceBoot: Bool
    /// The session the state is about (logind's session id), if one was found.
    public var session: String?
    /// Where the state came from, in words: "session 2's LockedHint",
    /// "no session manager: the system bus is not reachable".
    public var detail: String

    /// Creates a state.
    ///
    /// - Parameters:
    ///   - condition: What the session manager said.
    ///   - unlockedSinceBoot: Whether the owner unlocked since boot;
    ///     `true` by default when `condition` is `unlocked` or `unobserved`.
    ///   - session: The session's id, if one was found.
    ///   - detail: Where the state came from.
    public init(_ condition: Condition, unlockedSinceBoot: Bool? = nil, session: String? = nil, detail: String) {
        self.condition = condition
        self.unlockedSinceBoot = unlockedSinceBoot ?? (condition == .unlocked || condition == .unobserved)
        self.session = session
        self.detail = detail
    }

    /// Whether `whenUnlocked…` items are refused and grace periods end now.
    public var isLocked: Bool {
        switch condition {
        case .unlocked, .unobserved: false
        case .locked, .goingToSleep, .noSession: true
        }
    }

    /// A short phrase for people: "locked (session 2's LockedHint)".
    public var summary: String {
        let word = switch condition {
        case .unlocked: "unlocked"
        case .locked: "locked"
        case .goingToSleep: "going to sleep"
        case .noSession: "no session"
        case .unobserved: "not observed, treated as unlocked"
        }
        return "\(word) (\(detail))"
    }
}
