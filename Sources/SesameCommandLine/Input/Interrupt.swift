import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// Ctrl-C outside a prompt's raw input (which reads it as Cancel) still
/// cancels cleanly: the context is invalidated, the reader released, and the
/// command exits 5 instead of dying with the terminal left in raw mode.
enum Interrupt {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func cancel(_ context: AuthenticationContext) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { context.invalidate() }
        source.resume()
        // Kept for the life of the process: a command runs one operation.
        sources.append(source)
    }

    /// Runs `stop` on Ctrl-C (SIGINT) or SIGTERM instead of dying at once:
    /// a server given `stop` closes and removes its socket, so the next
    /// start finds no stale file (a daemon's files are its own to clean).
    ///
    /// - Parameter stop: Ends the command's work; it runs once per signal.
    static func stop(_ stop: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            sources.append(source)
        }
    }
}
