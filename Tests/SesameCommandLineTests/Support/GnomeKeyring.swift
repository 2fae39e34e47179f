#if os(Linux)
import Foundation
import SesameLinuxTesting
import Testing

/// gnome-keyring, the reference Secret Service provider, on a private
/// session bus: what the import and portal suites compare Sesame with.
enum GnomeKeyring {
    static let daemon = "/usr/bin/gnome-keyring-daemon"

    /// gnome-keyring with its login keyring unlocked by a password on its
    /// standard input, in a home of its own inside the bus's directory; a
    /// second start on the same bus opens the keyring the first one made.
    static func start(_ bus: PrivateSessionBus) async throws -> PrivateSessionBus.Daemon {
        let home = bus.directory + "/keyring-home"
        let runtime = bus.directory + "/keyring-run"
        for directory in [home, runtime] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // exec: the daemon keeps the shell's pid, so stop() ends it.
        let daemon = try await bus.startDaemon(
            "/bin/sh", ["-c", "exec \(Self.daemon) --foreground --unlock --components=secrets <<EOF\nkeyring-test-password\nEOF\n"],
            environment: ["HOME": home, "XDG_DATA_HOME": home + "/.local/share", "XDG_RUNTIME_DIR": runtime], log: "keyring.log")
        let ready = try await SecretTool.waitForProvider(bus)
        let log = (try? String(contentsOfFile: bus.directory + "/keyring.log", encoding: .utf8)) ?? ""
        try #require(ready && daemon.isRunning, "gnome-keyring did not start: \(log)")
        return daemon
    }
}
#endif
