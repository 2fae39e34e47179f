import Sesame
#if os(Linux)
import SesameLinux
#endif

extension StatusReport {
    /// The owner's session lock (SPEC D14), which `whenUnlocked…` items and
    /// every grace period obey.
    struct SessionSection: Encodable {
        /// `unlocked`, `locked`, `goingToSleep`, `noSession` or `unobserved`.
        var condition: String
        /// Whether `whenUnlocked…` items are refused now.
        var locked: Bool
        /// Whether `afterFirstUnlock…` items may be read.
        var unlockedSinceBoot: Bool
        /// logind's session id, when one was found.
        var session: String?
        var detail: String
        /// Whether a screen lock was seen since boot (the locker sets
        /// `LockedHint`); `nil` where it is not kept.
        var lockSeenSinceBoot: Bool?

        init(_ state: SessionLockState, lockSeenSinceBoot: Bool? = nil) {
            condition = state.condition.rawValue
            locked = state.isLocked
            unlockedSinceBoot = state.unlockedSinceBoot
            session = state.session
            detail = state.detail
            self.lockSeenSinceBoot = lockSeenSinceBoot
        }
    }

    static func sessionSection(_ machine: Machine) async -> SessionSection? {
        guard let monitor = machine.authenticators.sessionLock else { return nil }
        // The state first: reading a lock is what marks it seen.
        let state = await monitor.state()
        var lockSeen: Bool?
        #if os(Linux)
        lockSeen = (monitor as? LogindSessionLock)?.lockSeenSinceBoot()
        #endif
        return SessionSection(state, lockSeenSinceBoot: lockSeen)
    }

    func sessionText(_ row: (String, String) -> Void) {
        guard let session else { return }
        let word = switch session.condition {
        case "unlocked": "unlocked"
        case "locked": "locked"
        case "goingToSleep": "going to sleep (treated as locked)"
        case "noSession": "no session (treated as locked)"
        default: "not observed (treated as unlocked)"
        }
        row("session", word + ": " + session.detail)
        var facts = ["unlocked since boot: " + (session.unlockedSinceBoot ? "yes" : "no")]
        if let seen = session.lockSeenSinceBoot { facts.append("a screen lock seen since boot: " + (seen ? "yes" : "no")) }
        row("", facts.joined(separator: ", "))
    }
}
