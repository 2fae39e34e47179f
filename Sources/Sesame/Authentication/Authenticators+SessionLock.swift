extension Authenticators {
    /// Ends every grace period at each lock of the owner's session, until the
    /// calling task is cancelled (SPEC D14): the reuse window first, shared
    /// by every process of the user, then whatever `onLock` ends (a
    /// service's openings, an agent's reuse grant, a passkey token).
    ///
    /// Services run this for as long as they serve: the window ends at the
    /// moment of the signal, not at the next read, so a lock followed by an
    /// unlock does not let an earlier success be reused. A state that is
    /// already locked when watching starts counts as a lock. Going to sleep
    /// counts as a lock. Returns at once when ``sessionLock`` is `nil`.
    ///
    /// - Parameter onLock: Ends the caller's own grace periods; given the
    ///   state that locked.
    public func endGracePeriods(atEachLock onLock: @Sendable (SessionLockState) async -> Void) async {
        guard let monitor = sessionLock else { return }
        var wasLocked = false
        for await state in monitor.states() {
            if Task.isCancelled { return }
            let locked = state.endsGracePeriods
            defer { wasLocked = locked }
            guard locked, !wasLocked else { continue }
            await endReuseWindow()
            await onLock(state)
        }
    }

    /// Forgets the last biometric success wherever it is kept, so nothing
    /// is reused until the owner authenticates again (SPEC A6, D14). A store
    /// that cannot be written is left as it is: its reads fail closed.
    package func endReuseWindow() async {
        if let reuseWindow {
            try? await reuseWindow.clear()
            return
        }
        _ = try? await attempts.update { record in
            record.lastBiometricSuccess = nil
            record.lastBiometricSuccessDomainState = nil
        }
    }
}

extension SessionLockState {
    /// A screen lock or sleep: what ends grace periods and cancels a prompt
    /// that shows. A session that is not there is refused for `whenUnlocked`
    /// items, but nothing locked it, and a prompt outside any session (an
    /// askpass, a terminal without a session) is the owner's to answer.
    package var endsGracePeriods: Bool {
        condition == .locked || condition == .goingToSleep
    }
}
