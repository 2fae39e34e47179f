import CSesameTestProcess
import Foundation
import Sesame
@testable import SesameLinux

/// A child process started with posix_spawn, whose pid the test may choose
/// through `ns_last_pid`, and which is killed and reaped when stopped.
struct TestProcess {
    let pid: Int32

    /// `CLOCK_BOOTTIME` now, in nanoseconds, as the server reads it.
    static func bootNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static let lastPIDFile = "/proc/sys/kernel/ns_last_pid"

    /// Whether this process may choose the next pid (root, /proc/sys writable).
    static var canChoosePID: Bool { access(lastPIDFile, W_OK) == 0 }

    /// Whether CI runs this: there every suite must run, never be skipped.
    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// Starts `path` with `arguments`.
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> TestProcess {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // Only 0-2 go to the child: a descriptor another test has open (a
        // script being written, a pipe's write end) held by a `sleep 30`
        // would make that script busy to exec, or that pipe never end.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        sesame_test_spawn_close_from(&actions, 3)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return TestProcess(pid: pid)
    }

    /// Starts `path` as process `pid` (a pid now free): writes `pid - 1` to
    /// `ns_last_pid` and spawns, again while another process took it first.
    /// Other suites fork all the time, so one of their children may take the
    /// pid between the write and the spawn: such a child is short-lived, and
    /// the pid is tried again once it has gone (for up to 10 s).
    /// - Returns: `nil` when the pid could not be had.
    static func spawn(as pid: Int32, _ path: String, _ arguments: [String]) throws -> TestProcess? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            try "\(pid - 1)".write(toFile: lastPIDFile, atomically: false, encoding: .utf8)
            let process = try spawn(path, arguments)
            if process.pid == pid { return process }
            process.stop()
            while kill(pid, 0) == 0, Date() < deadline { usleep(10_000) }
        }
        return nil
    }

    /// Waits for the process to exit and reaps it, freeing its pid.
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }

    /// Kills and reaps it.
    func stop() {
        kill(pid, SIGKILL)
        wait()
    }

    /// What the identity of a host process running `executable` is here:
    /// its path, unless this test itself runs in a desktop app unit or a
    /// snap, which its children share.
    static func hostIdentity(executable: String) -> AppIdentity? {
        let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        // procfs reports a size of 0: read to the end rather than by the size.
        let own = FileHandle(forReadingAtPath: "/proc/self/cgroup").map { CgroupApp.finding(inCgroupFile: Array($0.readDataToEndOfFile())) }
        switch own {
        case .snap(let name): return AppIdentity(kind: .snap, id: name)
        case .appUnit(let id): return AppIdentity(kind: .systemdUnit, id: id)
        default: return AppIdentity(kind: .executable, id: resolved)
        }
    }
}
