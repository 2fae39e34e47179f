import Foundation
import Sesame

/// A child the harness started, stopped and reaped by PID.
///
/// Spawned with posix_spawn rather than Foundation's `Process`: children of
/// `Process` here inherit a signal mask that blocks SIGTERM, so they could
/// only be SIGKILLed. posix_spawn lets the harness reset the mask, and put
/// each child in a process group of its own.
final class ChildProcess: Sendable {
    let pid: pid_t
    let path: String
    private let status = Locked<Int32?>(nil)

    private init(pid: pid_t, path: String) {
        self.pid = pid
        self.path = path
    }

    /// Starts `path`, its stdout and stderr going to `log`.
    static func launch(_ path: String, _ arguments: [String], environment: [String: String], log: String) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else: a pipe another test has open at this moment (to read
        // a `sesame` run's output to its end) must not stay open in a
        // long-lived fprintd or bus, or that test waits for the harness.
        // (closefrom_np is not visible to Swift; glibc ignores closing a
        // descriptor that is not open, and the margin covers pipes opened
        // by other threads meanwhile.)
        for descriptor in 3..<(highestOpenDescriptor() + 64) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw FprintdHarnessError("cannot start \(path): \(String(cString: strerror(result)))")
        }
        return ChildProcess(pid: pid, path: path)
    }

    /// Runs a program to its end, running `whileRunning` meanwhile; kills it
    /// after `timeout`, so a lost scan fails a test instead of hanging it.
    ///
    /// - Returns: Its exit status and its combined output.
    static func run(
        _ path: String,
        _ arguments: [String],
        environment: [String: String],
        outputFile: String,
        timeout: Duration = .seconds(30),
        whileRunning: ((ChildProcess) async throws -> Void)? = nil
    ) async throws -> (status: Int32, output: String) {
        let child = try launch(path, arguments, environment: environment, log: outputFile)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        do {
            try await whileRunning?(child)
            while child.isRunning {
                guard clock.now < deadline else {
                    throw FprintdHarnessError("\(path) did not finish in \(timeout)")
                }
                try await Task.sleep(for: .milliseconds(2))
            }
        } catch {
            child.terminate()
            let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
            throw FprintdHarnessError("\(error); output: \(output)")
        }
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outputFile)
        return (child.exitStatus ?? -1, output)
    }

    private static func highestOpenDescriptor() -> Int32 {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return open.compactMap { Int32($0) }.max() ?? 1_024
    }

    /// The exit status once the child has ended (and been reaped), else `nil`.
    var exitStatus: Int32? {
        status.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                let reaped = waitpid(pid, &raw, WNOHANG)
                if reaped == pid {
                    // WIFEXITED / WEXITSTATUS, spelt out: the macros do not import.
                    status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                } else if reaped < 0 {
                    status = -1
                }
            }
            return status
        }
    }

    var isRunning: Bool { exitStatus == nil }

    /// SIGTERM, then SIGKILL after 2.5 s; by PID, never by name. Reaps the child.
    func terminate() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        for _ in 0..<1250 where isRunning {
            usleep(2_000)
        }
        if isRunning {
            kill(pid, SIGKILL)
            for _ in 0..<1000 where isRunning {
                usleep(2_000)
            }
        }
    }
}
