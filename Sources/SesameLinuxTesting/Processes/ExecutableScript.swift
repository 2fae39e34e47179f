#if canImport(Glibc)
import Foundation
import Glibc

/// A program a test writes and then runs: a fake pinentry, an askpass.
///
/// Written through a close-on-exec descriptor. Foundation's writes are not
/// close-on-exec, so a child that another test started meanwhile inherits
/// the write end, and while that child lives (a daemon, a `sleep`) every
/// exec of the script fails with "Text file busy".
public enum ExecutableScript {
    /// Writes `text` to `path` (replacing what is there) with `mode`.
    ///
    /// - Parameters:
    ///   - text: The program, starting with its `#!` line.
    ///   - path: Where to write it.
    ///   - mode: Its permissions; `0o755` by default.
    /// - Throws: `POSIXError` when the file cannot be written.
    public static func write(_ text: String, to path: String, mode: mode_t = 0o755) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Self.error() }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Self.error() }
            written += count
        }
        // O_CREAT's mode applies to a new file only, and through the umask.
        guard fchmod(descriptor, mode) == 0 else { throw Self.error() }
    }

    private static func error() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
#endif
