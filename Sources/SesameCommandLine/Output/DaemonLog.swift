#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// Where a background daemon (`ssh-agent`, `secret-service`) writes its
/// refusals when nobody reads its standard error: every refusal says why,
/// somewhere the user can read it. Under systemd standard error
/// is the journal and stays; started by `--print-env`, from a desktop
/// session's autostart or with `2>/dev/null`, it becomes
/// `$XDG_STATE_HOME/sesame/<daemon>.log` (`~/.local/state/sesame/` by
/// default): 0600 in a 0700 directory, appended to, never a secret in it.
enum DaemonLog {
    /// The log file of `daemon` (`ssh-agent`, `secret-service`).
    static func path(of daemon: String, environment: [String: String]) -> String {
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? "/") + "/.local/state"
        return "\(state)/sesame/\(daemon).log"
    }

    /// Opens the log for appending, private, creating its directory.
    /// - Returns: The descriptor, or `nil` (with the reason) when it cannot be opened.
    static func openLog(_ path: String) -> (descriptor: Int32?, problem: String?) {
        do {
            try PrivateFile.createDirectories(PrivateFile.parentDirectory(of: path))
        } catch {
            return (nil, "cannot create the folder of \(path): \(error)")
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return (nil, "cannot open \(path): \(String(cString: strerror(errno)))") }
        var info = stat()
        // An existing file another user could read is not ours to write refusals into.
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 == 0,
              info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return (nil, "\(path) is not a private file of this user (0600); remove it or fix its mode")
        }
        return (descriptor, nil)
    }

    /// Whether standard error goes nowhere a person will see: closed, or /dev/null.
    static func standardErrorIsDiscarded() -> Bool {
        var error = stat()
        guard fstat(2, &error) == 0 else { return true }
        var null = stat()
        guard stat("/dev/null", &null) == 0 else { return false }
        return error.st_mode & S_IFMT == S_IFCHR && error.st_rdev == null.st_rdev
    }

    /// When standard error is discarded, points it at the daemon's log, so
    /// that its refusals are kept. Standard error on a terminal, a pipe, a
    /// file or the journal is left as it is.
    /// - Returns: The log's path when standard error now goes there.
    @discardableResult
    static func keepRefusals(of daemon: String, environment: [String: String]) -> String? {
        guard standardErrorIsDiscarded() else { return nil }
        let path = path(of: daemon, environment: environment)
        guard let descriptor = openLog(path).descriptor else { return nil }
        defer { close(descriptor) }
        return dup2(descriptor, 2) >= 0 ? path : nil
    }
}
