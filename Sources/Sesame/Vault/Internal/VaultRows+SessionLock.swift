/// The item's class against the session's lock (SPEC D14). Every read of an
/// item's value, and every use of a key, passes here first, before any
/// prompt: a locked session is refused without asking anyone.
extension VaultRows {
    /// Refuses `accessibility`'s item while the session does not allow it.
    /// Items whose class needs no unlocked session ask the monitor only
    /// until the first unlock since boot is known.
    func admitSessionLock(_ accessibility: ItemAccessibility, name: String) async throws(VaultError) {
        guard let monitor = vault.authenticators.sessionLock else { return }
        if accessibility.needsUnlockedSession {
            let state = await monitor.state()
            guard state.isLocked else { return }
            throw VaultError(sessionLocked: state, item: name, accessibility: accessibility)
        }
        if await monitor.unlockedSinceBoot() { return }
        let state = await monitor.state()
        guard !state.unlockedSinceBoot else { return }
        throw VaultError(sessionLocked: state, item: name, accessibility: accessibility)
    }
}

extension VaultError {
    /// `interactionNotAllowed` because the session is locked, saying which
    /// class needs what.
    init(sessionLocked state: SessionLockState, item: String, accessibility: ItemAccessibility) {
        let needs = accessibility.needsUnlockedSession
            ? "only while your session is unlocked (\(accessibility.rawValue)), and it is \(state.summary)"
            : "only after the first unlock since boot (\(accessibility.rawValue)), and there was none yet: the session is \(state.summary)"
        let fix = state.condition == .noSession
            ? "log in, or read it from a process in your session"
            : "unlock the session and try again"
        self.init(.interactionNotAllowed, "\(item) is readable \(needs); \(fix)")
        sessionLock = state
    }
}
