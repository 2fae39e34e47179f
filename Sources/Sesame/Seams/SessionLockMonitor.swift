/// Tells whether the owner's session is locked (SPEC D14): the seam that
/// makes ``ItemAccessibility`` mean what it says, as the sensor and the
/// passcode verifier are seams for authentication.
///
/// On Linux, `SesameLinux` reads logind (the session's `LockedHint`, its
/// `Lock`/`Unlock` signals and the manager's `PrepareForSleep`); on Apple
/// platforms the system enforces the classes itself; tests use
/// `SimulatedSessionLock` from SesameTesting.
///
/// Sesame asks ``state()`` when an item's class needs it (never for
/// `afterFirstUnlock…` items once ``unlockedSinceBoot()`` says yes), and
/// watches ``states()`` while a prompt shows and while a service keeps grace
/// periods, so that a lock ends them at once.
public protocol SessionLockMonitor: Sendable {
    /// The session's state now. Never prompts; never throws: a session
    /// manager that cannot be asked is a state too
    /// (``SessionLockState/Condition-swift.enum/unobserved``, saying why).
    ///
    /// - Returns: The state.
    func state() async -> SessionLockState

    /// Whether the session was unlocked, or the owner authenticated, at least
    /// once since this boot: what `afterFirstUnlock…` items need. May answer
    /// from a mark kept since the first unlock, without asking the session
    /// manager.
    ///
    /// - Returns: `true` once the owner unlocked since boot.
    func unlockedSinceBoot() async -> Bool

    /// Notes that the owner authenticated now, which counts as an unlock for
    /// `afterFirstUnlock…` items until the next boot.
    func recordOwnerAuthentication() async

    /// The state now, then each change as the session manager reports it
    /// (not polled). The sequence ends when the caller stops iterating.
    ///
    /// - Returns: The states.
    func states() -> AsyncStream<SessionLockState>
}

extension SessionLockMonitor {
    /// Reads the state; a monitor without a cheaper mark answers from it.
    ///
    /// - Returns: ``SessionLockState/unlockedSinceBoot``.
    public func unlockedSinceBoot() async -> Bool {
        await state().unlockedSinceBoot
    }

    /// Keeps nothing: a monitor without a mark learns unlocks from the session.
    public func recordOwnerAuthentication() async {}
}
