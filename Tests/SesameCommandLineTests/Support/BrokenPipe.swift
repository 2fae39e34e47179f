import Foundation

/// Writing to a child that has already exited fails with EPIPE: the test
/// binary survives SIGPIPE from its first line (CSesameTestProcess installs
/// a handler as it loads), so the write's error is all that is left to
/// ignore here.
enum BrokenPipe {
    /// Writes `data` to `handle`, ignoring a reader that has gone away.
    static func write(_ data: Data, to handle: FileHandle) {
        try? handle.write(contentsOf: data)
    }
}
