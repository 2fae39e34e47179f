#if os(Linux)
import Foundation
import SesameLinuxTesting

/// A sandbox as Flatpak makes one, as far as the desktop portal can tell:
/// bubblewrap with a root of its own holding `/.flatpak-info`, which names
/// the app; the host's /usr and /etc read-only; the session bus's folder
/// and the app's own data folder the only places it can write.
struct FlatpakSandbox {
    static let bwrap = "/usr/bin/bwrap"

    let appID: String
    /// The app's folder on the host (Flatpak's `~/.var/app/ID`): its HOME,
    /// with `data` as its XDG_DATA_HOME.
    let appFolder: String
    private let info: String

    /// - Parameters:
    ///   - appID: What `/.flatpak-info` names.
    ///   - bus: The session bus the app reaches (its folder is bound in).
    init(appID: String, on bus: PrivateSessionBus) throws {
        self.appID = appID
        appFolder = bus.directory + "/var-app/" + appID
        info = bus.directory + "/flatpak-info-" + appID
        try FileManager.default.createDirectory(atPath: appFolder + "/data", withIntermediateDirectories: true)
        try "[Application]\nname=\(appID)\n".write(toFile: info, atomically: true, encoding: .utf8)
    }

    /// The keyring file libsecret keeps for the app when it runs sandboxed.
    var keyringFile: String { appFolder + "/data/keyrings/default.keyring" }

    /// Runs `script` with `sh -c` inside the sandbox; `environment` goes in
    /// (a secret travels there, never in argv).
    func run(_ script: String, on bus: PrivateSessionBus, environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let arguments = [
            "--unshare-pid", "--die-with-parent", "--tmpfs", "/",
            "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--ro-bind", "/etc", "/etc",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
            "--bind", bus.directory, bus.directory, "--ro-bind", info, "/.flatpak-info",
            "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", appFolder,
            "--setenv", "XDG_DATA_HOME", appFolder + "/data", "--setenv", "DBUS_SESSION_BUS_ADDRESS", bus.address,
        ]
        // `environment` reaches the sandbox through bwrap's own environment,
        // which it passes on: a value given to --setenv would be in argv.
        // libsecret subscribes to the portal's Response only after the
        // portal's reply, and the portal broadcasts it: a fast provider on a
        // loaded machine can answer before the subscription, and libsecret
        // then waits forever, whichever provider serves (seen with
        // gnome-keyring as with Sesame). Such a run is killed and run again
        // (the scripts are idempotent), at most three times.
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                return try await bus.run(Self.bwrap, arguments + ["/bin/sh", "-c", script], environment: environment, timeout: .seconds(15))
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }
}
#endif
