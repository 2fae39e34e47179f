#if os(Linux)
import Sesame

/// What a daemon runs for as long as it serves (SPEC D14): at each lock of
/// the owner's session, or sleep, the reuse window ends for every process,
/// then the daemon's own grace periods (openings, tokens), and its log says so.
enum SessionLockWatch {
    /// Starts watching; the task ends with the process.
    ///
    /// - Parameters:
    ///   - authenticators: The daemon's, whose session monitor is watched.
    ///   - daemon: The daemon's name in its log ("ssh-agent").
    ///   - onLock: Ends the daemon's own grace periods.
    @discardableResult
    static func start(
        _ authenticators: Authenticators, daemon: String, onLock: @escaping @Sendable (SessionLockState) async -> Void = { _ in }
    ) -> Task<Void, Never> {
        Task.detached {
            await authenticators.endGracePeriods { state in
                await onLock(state)
                StandardError.write("sesame \(daemon): the session is \(state.summary.escapingControlCharacters()); "
                    + "what the owner allowed before (the reuse window, openings, tokens) has ended\n")
            }
        }
    }
}
#endif
