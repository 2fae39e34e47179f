#if os(Linux)
import Foundation

/// A daemon (`secret-service`, `ssh-agent`, `passkey serve`) whose binary
/// was removed (`apt remove sesame`) exits instead of serving on from a
/// deleted file until the next logout: the bus then starts whichever
/// provider is installed, and the agent's shells see it gone.
///
/// Only removal ends it. A package upgrade puts a new file at the same
/// path, and the running one serves on until its next start (a daemon
/// stopped under a client would cost it its open sessions).
enum ExecutableRemoval {
    /// How often the path is looked at: one `access` call each time.
    static let interval: Duration = .seconds(5)

    /// Starts looking; ends the process with status 0 once the binary it
    /// runs is gone, saying so on standard error (its log).
    static func watch() {
        let path = AgentFiles.executable
        Task.detached {
            while true {
                try? await Task.sleep(for: interval)
                if isRemoved(path) {
                    StandardError.exit(.success, "sesame: \(path.escapingControlCharacters()) was removed (the package was uninstalled?): exiting")
                }
            }
        }
    }

    /// Whether nothing is at `path` and the running image is one the kernel
    /// marks deleted: both, so that a path briefly missing during an
    /// upgrade's rename, or a binary started through another link, never counts.
    static func isRemoved(_ path: String) -> Bool {
        guard access(path, F_OK) != 0, errno == ENOENT else { return false }
        let image = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return image?.hasSuffix(" (deleted)") == true
    }
}
#endif
