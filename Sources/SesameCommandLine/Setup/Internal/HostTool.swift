#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The programs `setup` and `doctor` drive (git, systemctl): found on PATH,
/// run to their end with their output captured. Nothing secret passes.
enum HostTool {
    /// `name`'s absolute path on `PATH`, or `nil`.
    static func find(_ name: String, environment: [String: String]) -> String? {
        if name.hasPrefix("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `name` and returns its exit status and standard output (trimmed).
    static func run(_ name: String, _ arguments: [String], environment: [String: String]) async throws -> (status: Int32, output: String) {
        guard let path = find(name, environment: environment) else {
            throw CommandFailure(status: .notAvailable, message: "\(name) is not installed (not found on PATH)")
        }
        let (status, output) = try await Spawn.run(path, arguments, input: nil, capture: true, limit: 1 << 20)
        return (status, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether this user has a running systemd user manager to talk to.
    static func hasUserManager(environment: [String: String]) -> Bool {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return false }
        return access(runtime + "/systemd/private", F_OK) == 0 && find("systemctl", environment: environment) != nil
    }
}
