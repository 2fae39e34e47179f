import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which app a local process is (SPEC D13), asked of the kernel the way
/// xdg-desktop-portal asks it, so that an item records the app that
/// made it and a prompt names the app that asks.
///
/// A D-Bus peer is known by a pid, and a pid is reused once its process
/// has gone: a client can fork, leave a child holding the connection, exit,
/// and let another program be started with its pid. The answer therefore
/// belongs to a process only if that process started no later than the
/// moment the connection was known to exist, and stayed the same process
/// (its start time unchanged) through every read. Anything in doubt is
/// `nil`, an unknown app: never another process's identity.
public enum ProcessApp {
    /// Which app this very process is: its sandbox's app id, else its
    /// executable (SPEC D13: `sesame`, and an app using the library, are
    /// apps too).
    ///
    /// - Returns: The app; `nil` when `/proc/self` cannot be read.
    public static func current() -> AppIdentity? {
        identify(pid: getpid(), connectedBy: sesame_boottime_nanoseconds())
    }

    /// The app of process `pid`, strongest kind first: the Flatpak app id
    /// in its sandbox's `/.flatpak-info`, the snap it runs in, the desktop
    /// app unit it was started in, else its executable's path.
    ///
    /// All reads go through one descriptor of `/proc/PID`. A Flatpak
    /// sandbox's file is one its app cannot write; the others are chosen
    /// by code running as the user, so they gate honest apps and name who
    /// asks, as `AppIdentity` says.
    ///
    /// - Parameters:
    ///   - pid: The process, as the bus reported it for the connection.
    ///   - connectedBy: A `CLOCK_BOOTTIME` reading in nanoseconds at which
    ///     the connection already existed; a process that started after it
    ///     cannot be the one that connected.
    /// - Returns: `nil` when the process is gone, unreadable, started after
    ///   `connectedBy`, changed while it was read, or holds a Flatpak or
    ///   snap identity that cannot be read cleanly.
    public static func identify(pid: Int32, connectedBy: UInt64) -> AppIdentity? {
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard ticksPerSecond > 0, let directory = ProcessDirectory(pid: pid),
              let started = startTime(directory, pid: pid),
              started <= ProcessStat.ticks(nanoseconds: connectedBy, ticksPerSecond: UInt64(ticksPerSecond)),
              let identity = readIdentity(directory),
              // The same process throughout: one that exited meanwhile fails this read.
              startTime(directory, pid: pid) == started else { return nil }
        return identity
    }

    private static func startTime(_ directory: borrowing ProcessDirectory, pid: Int32) -> UInt64? {
        guard case .contents(let stat) = directory.read("stat", limit: 4096) else { return nil }
        return ProcessStat.startTime(fromStat: stat, pid: pid)
    }

    private static func readIdentity(_ directory: borrowing ProcessDirectory) -> AppIdentity? {
        switch directory.read("root/.flatpak-info", limit: FlatpakInfo.maximumSize, regularOnly: true) {
        case .contents(let info):
            // A sandbox whose file names no valid app is not some other app.
            return FlatpakInfo.appID(fromKeyFile: info).flatMap { AppIdentity(kind: .flatpak, id: $0) }
        case .failed:
            return nil
        case .missing:
            break
        }
        guard case .contents(let cgroup) = directory.read("cgroup", limit: 64 * 1024) else { return nil }
        switch CgroupApp.finding(inCgroupFile: cgroup) {
        case .snap(let name): return AppIdentity(kind: .snap, id: name)
        case .appUnit(let id): return AppIdentity(kind: .systemdUnit, id: id)
        case .unreadable: return nil
        case .neither: break
        }
        guard let target = directory.readLink("exe") else { return nil }
        let path = executablePath(fromLink: target)
        guard path.hasPrefix("/") else { return nil }
        return AppIdentity(kind: .executable, id: path)
    }

    /// The kernel marks an executable replaced on disk (an upgrade) with
    /// ` (deleted)`; the process still runs the program of that path.
    static func executablePath(fromLink target: String) -> String {
        let deleted = " (deleted)"
        return target.hasSuffix(deleted) ? String(target.dropLast(deleted.count)) : target
    }
}
