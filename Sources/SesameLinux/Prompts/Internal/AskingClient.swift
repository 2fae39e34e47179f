#if os(Linux)
import Glibc
import Sesame

/// The process behind one request to a service (the agent's socket peer, a
/// bus caller), as far as where to ask it goes: its name for the owner, and
/// the terminal it is in the foreground of, if any.
///
/// Read through one descriptor of `/proc/PID` (``ProcessDirectory``) and
/// only when the process started no later than the connection existed and
/// kept its start time through the reads, as ``ProcessApp`` reads an app: a
/// pid given to a new process never lends the new one's terminal to an old
/// request.
struct AskingClient: Sendable, Hashable {
    /// Where the client stands on a terminal.
    enum Terminal: Sendable, Hashable {
        /// In the foreground of this terminal, which is this user's.
        case foreground(String)
        /// It has a terminal but is not in its foreground (a background job,
        /// or the terminal is not a kind Sesame opens).
        case background(String)
        /// Its terminal belongs to another user.
        case notThisUsers(String)
        /// No controlling terminal (a daemon, an IDE, a `setsid` child).
        case none
    }

    let pid: Int32
    /// The client as a prompt names it: "`ssh-keygen` (pid 4242)".
    let described: String
    let terminal: Terminal

    /// The client `pid`, or `nil` when it cannot be read as the process
    /// that connected by `connectedBy` (gone, unreadable, or started later).
    ///
    /// - Parameters:
    ///   - pid: The process the kernel or the bus reported.
    ///   - connectedBy: A `CLOCK_BOOTTIME` reading in nanoseconds at which
    ///     the connection already existed.
    static func read(pid: Int32, connectedBy: UInt64) -> AskingClient? {
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard ticksPerSecond > 0, let directory = ProcessDirectory(pid: pid),
              case .contents(let stat) = directory.read("stat", limit: 4096),
              let started = ProcessStat.startTime(fromStat: stat, pid: pid),
              started <= ProcessStat.ticks(nanoseconds: connectedBy, ticksPerSecond: UInt64(ticksPerSecond)),
              let fields = ProcessStat.terminalFields(fromStat: stat, pid: pid) else { return nil }
        var name = ""
        if case .contents(let comm) = directory.read("comm", limit: 64) {
            // The program chose its name: it informs the owner and decides nothing (SPEC D9).
            name = String(decoding: comm, as: UTF8.self).trimmingSuffix("\n").escapingControlCharacters()
        }
        let terminal = Self.terminal(fields)
        // The same process throughout: one that exited meanwhile fails this read.
        guard case .contents(let again) = directory.read("stat", limit: 4096),
              ProcessStat.startTime(fromStat: again, pid: pid) == started else { return nil }
        return AskingClient(pid: pid, described: name.isEmpty ? "pid \(pid)" : "`\(name)` (pid \(pid))", terminal: terminal)
    }

    private static func terminal(_ fields: ProcessStat.TerminalFields) -> Terminal {
        guard fields.terminal != 0 else { return .none }
        guard let path = devicePath(fields.terminal) else { return .background("terminal device \(fields.terminal)") }
        var status = stat()
        // The device the number names, and this user's: a terminal another
        // user logged in on is never written to nor read from.
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFCHR,
              deviceNumber(status.st_rdev) == fields.terminal else { return .background(path) }
        guard status.st_uid == geteuid() else { return .notThisUsers(path) }
        return fields.isInForeground ? .foreground(path) : .background(path)
    }

    /// `/dev/pts/N` (Unix 98 pseudo-terminals, majors 136–143) or
    /// `/dev/ttyN` (virtual consoles, major 4, minors 1–63) for the
    /// kernel's `tty_nr` encoding; `nil` for any other terminal.
    static func devicePath(_ number: UInt32) -> String? {
        let major = (number >> 8) & 0xfff
        let minor = (number & 0xff) | ((number >> 12) & 0xfff00)
        switch major {
        case 136...143: return "/dev/pts/\((major - 136) * 256 + minor)"
        case 4 where (1...63).contains(minor): return "/dev/tty\(minor)"
        default: return nil
        }
    }

    /// A `dev_t` in the `tty_nr` encoding (major in bits 8–19, minor in
    /// bits 0–7 and 20–31), from glibc's split of the 64-bit value.
    private static func deviceNumber(_ device: dev_t) -> UInt32? {
        let value = UInt64(device)
        let major = ((value >> 8) & 0xfff) | ((value >> 32) & ~UInt64(0xfff))
        let minor = (value & 0xff) | ((value >> 12) & ~UInt64(0xff))
        guard major <= 0xfff, minor <= 0xfffff else { return nil }
        return UInt32(major << 8 | (minor & 0xff) | ((minor & ~0xff) << 12))
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
#endif
