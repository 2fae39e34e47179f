/// `sesame`'s exit codes: stable, documented in the README, the same in
/// `--json` errors.
enum ExitStatus: Int32, Sendable, CaseIterable {
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
    case invalidName = 11
    case untrusted = 12
    case sessionLocked = 13

    /// What the status means, for `sesame help exit-codes`.
    var meaning: String {
        switch self {
        case .success: "ok"
        case .failure: "error (the message says which)"
        case .usage: "usage: an unknown option, a missing argument, a value that does not parse"
        case .notFound: "no such item, or no vault at the path"
        case .authenticationFailed: "authentication failed: not recognised, a wrong passcode or password"
        case .cancelled: "cancelled: Cancel, Ctrl-C, or the context was invalidated"
        case .lockedOut: "locked out: too many failures; the message says until when"
        case .notAvailable: "not available: no reader, no PAM service, no device key; the message says why"
        case .itemInvalidated: "item invalidated by an enrolment change (biometry-current-set)"
        case .damaged: "vault damaged, tampered with, or readable by others"
        case .notInteractive: "not interactive: a prompt was needed but --no-interaction was given, or nobody could be asked (no terminal in the foreground, no display)"
        case .invalidName: "invalid name: a service, name or label holds a control character (ESC, a newline, ...); nothing was stored"
        case .untrusted: "untrusted: a socket, its folder or the program serving it is another user's or another program's; nothing was sent to it"
        case .sessionLocked: "session locked: the item is readable only while your session is unlocked (or after the first unlock since boot), or the session locked while a prompt showed; unlock it and try again"
        }
    }
}

/// An error that ends the command with a specific exit code and message.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String
    /// Report on standard output as `{"error": {...}}` (for `--json`).
    var json = false
}
