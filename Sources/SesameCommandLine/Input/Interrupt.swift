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
}
