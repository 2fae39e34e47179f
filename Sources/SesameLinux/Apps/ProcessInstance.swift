#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process by its pid and start time, and the systemd unit that runs it,
/// as `/proc` tells them: what `sesame setup` and `doctor` need to tell one
/// session bus from the next and to stop a Secret Service provider through
/// its own unit. Never trusted for access decisions (``ProcessApp`` is).
package struct ProcessInstance: Sendable, Equatable, Codable {
    /// The process id.
    package var pid: Int32
    /// Its start, in seconds after boot (`/proc/PID/stat` field 22).
    package var secondsAfterBoot: Double

    /// The process `pid`, or `nil` when it is gone or `/proc` hides it
    /// (another namespace).
    package init?(pid: Int32) {
        guard let directory = ProcessDirectory(pid: pid), case .contents(let stat) = directory.read("stat", limit: 4096),
              let ticks = ProcessStat.startTime(fromStat: stat, pid: pid) else { return nil }
        let rate = sysconf(Int32(_SC_CLK_TCK))
        guard rate > 0 else { return nil }
        self.pid = pid
        self.secondsAfterBoot = Double(ticks) / Double(rate)
    }

    /// The systemd unit (`gnome-keyring-daemon.service`) whose cgroup holds
    /// the process `pid`, or `nil` when none does (an autostart entry or
    /// the bus started it).
    package static func unit(ofProcess pid: Int32) -> String? {
        guard let directory = ProcessDirectory(pid: pid), case .contents(let bytes) = directory.read("cgroup", limit: 64 * 1024) else { return nil }
        // cgroup v2's one line "0::/user.slice/…/app.slice/NAME.service"; the last .service component is the unit.
        let path = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("0::") }.map { $0.dropFirst(3) } ?? ""
        return path.split(separator: "/").last { $0.hasSuffix(".service") }.map(String.init)
    }
}
