import Foundation

/// Writing to a child that has already exited raises SIGPIPE, which would
/// kill the whole test process (every suite with it). A handler that does
/// nothing turns that into an EPIPE error instead. Unlike SIG_IGN, a handler
/// is reset by exec, so the `sesame` processes the tests start still get the
/// default disposition, as they would from a shell.
enum BrokenPipe {
    static let survived: Void = {
        signal(SIGPIPE) { _ in }
    }()

    /// Writes `data` to `handle`, ignoring a reader that has gone away.
    static func write(_ data: Data, to handle: FileHandle) {
        _ = survived
        try? handle.write(contentsOf: data)
    }
}
