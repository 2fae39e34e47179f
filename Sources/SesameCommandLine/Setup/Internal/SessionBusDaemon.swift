#if os(Linux)
import Foundation
import Sesame
import SesameLinux

/// The session bus's own daemon (dbus-daemon or dbus-broker), told apart
/// from the next login's by its boot, pid and start: `setup` records the
/// one it told to read the activation file, and `doctor` asks whether the
/// one running now has read it.
///
/// dbus-daemon watches only the service folders that existed when it
/// started: a new user has no `~/.local/share/dbus-1/services`, so the
/// file setup writes there is unknown to the running bus until it reloads
/// its configuration, and a provider stopped meanwhile is started again
/// from the system's file (gnome-keyring, its keyring locked).
struct SessionBusDaemon: Codable, Equatable, Sendable {
    /// `/proc/sys/kernel/random/boot_id` when it was seen.
    var bootID: String
    var process: ProcessInstance

    /// The daemon behind `address`, or `nil` when the bus does not say its
    /// pid or `/proc` does not show it.
    static func current(address: String) async -> SessionBusDaemon? {
        guard let boot = SystemClock().bootInstant() else { return nil }
        let pid = try? await DBusClient.withConnection(address: address) { client throws(DBusError) -> UInt32? in
            guard case .uint32(let pid)? = try client.call(
                busName, path: busPath, interface: busName, member: "GetConnectionUnixProcessID", [.string(busName)]).first else { return nil }
            return pid
        }
        guard let pid = pid ?? nil, let process = ProcessInstance(pid: Int32(bitPattern: pid)) else { return nil }
        return SessionBusDaemon(bootID: boot.bootID, process: process)
    }

    /// Makes the bus read its configuration and service folders again
    /// (`ReloadConfig`), so that a folder made after it started counts.
    /// - Throws: ``CommandFailure`` (exit 7) when the bus refuses or does not answer.
    static func reload(address: String) async throws(CommandFailure) {
        do {
            _ = try await DBusClient.withConnection(address: address) { client throws(DBusError) in
                try client.call(busName, path: busPath, interface: busName, member: "ReloadConfig")
            }
        } catch {
            throw CommandFailure(status: .notAvailable, message: "the session bus did not reload its configuration: \(error.description.escapingControlCharacters())")
        }
    }

    /// Whether this daemon started before `moment` on the same boot: it
    /// then knows a folder made at `moment` only if it was told to reload.
    func started(before moment: BootInstant) -> Bool {
        moment.bootID == bootID && process.secondsAfterBoot < moment.uptime
    }

    private static let busName = "org.freedesktop.DBus"
    private static let busPath = "/org/freedesktop/DBus"
}
#endif
