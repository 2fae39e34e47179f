#if os(Linux)
import Sesame

/// What logind said, and the state it makes (SPEC D14): one place decides,
/// for the one-shot read and for the watcher alike.
struct LogindFacts {
    /// The owner's session, or `nil` when the user has none.
    var session: LogindBus.Session?
    /// The session's `LockedHint`.
    var lockedHint = false
    /// A `Lock` signal came and no `Unlock` (nor the hint going off) since:
    /// the locker was asked to lock and may not have set the hint yet.
    var lockRequested = false
    /// `PrepareForSleep(true)` came, or `PreparingForSleep` was on.
    var sleeping = false
    /// Set when logind could not be asked: the reason.
    var failure: SessionLockState?

    /// The state, marking the facts that last until reboot in `marks`.
    func state(uid: UInt32, marks: SessionMarks) -> SessionLockState {
        if var failure {
            if failure.condition != .unobserved { failure.unlockedSinceBoot = marks.has(.unlocked) }
            return failure
        }
        guard let session else {
            return SessionLockState(.noSession, unlockedSinceBoot: marks.has(.unlocked),
                                    detail: "logind has no session of uid \(uid)")
        }
        let id = session.id.escapingControlCharacters()
        if sleeping {
            return SessionLockState(.goingToSleep, unlockedSinceBoot: marks.has(.unlocked), session: session.id,
                                    detail: "logind's PrepareForSleep")
        }
        if lockedHint || lockRequested {
            if lockedHint { marks.set(.lockSeen) }
            return SessionLockState(.locked, unlockedSinceBoot: marks.has(.unlocked), session: session.id,
                                    detail: lockedHint ? "session \(id)'s LockedHint" : "logind asked session \(id) to lock")
        }
        marks.set(.unlocked)
        return SessionLockState(.unlocked, unlockedSinceBoot: true, session: session.id, detail: "session \(id)'s LockedHint")
    }

    /// The state for a failure to ask logind: nothing answers on the bus
    /// (unobserved, treated as unlocked, SECURITY.md says why), or logind
    /// answers with an error (locked: the lock state cannot be told, and a
    /// security rule fails closed).
    static func failure(_ error: DBusError) -> SessionLockState {
        let message = error.message.escapingControlCharacters()
        if error.localFailure != nil {
            return SessionLockState(.unobserved, detail: "no session manager: \(message)")
        }
        if LogindBus.isAbsent(error) {
            return SessionLockState(.unobserved, detail: "no session manager: logind is not on the system bus")
        }
        return SessionLockState(.locked, unlockedSinceBoot: false,
                                detail: "cannot tell, so treated as locked: logind answered \(error.name.escapingControlCharacters()): \(message)")
    }
}
#endif
