/// `sesame`'s exit codes: stable, documented in the README, the same in
/// `--json` errors.
enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case notFound = 3
    case authenticationFailed = 4
    case cancelled = 5
    case lockedOut = 6
    case notAvailable = 7
    case itemInvalidated = 8
    case damaged = 9
    case notInteractive = 10
}

/// An error that ends the command with a specific exit code and message.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String
    /// Report on standard output as `{"error": {...}}` (for `--json`).
    var json = false
}
