#if canImport(Subprocess)
import Foundation
import Sesame
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A child the harness started, stopped by PID.
///
/// Started through swift-subprocess, which resets the signal mask and
/// dispositions (children of Foundation's `Process` here inherit a mask that
/// blocks SIGTERM, so they could only be SIGKILLed), closes every descriptor
/// but 0, 1 and 2 (a pipe another test has open at this moment, to read a
/// `sesame` run's output to its end, must not stay open in a long-lived
/// fprintd or bus, or that test waits for the harness), and puts each child
/// in a process group of its own. It also waits for the child and reaps it.
final class ChildProcess: Sendable {
    let pid: pid_t
    let path: String
    /// Set once the child has ended, before swift-subprocess may reap it:
    /// while it is false under the lock, `pid` is still this child's.
    private let ended: Locked<Bool>
    /// Its exit status (128 + signal when killed), once reaped; -1 when it
    /// could not be watched.
    private let status: Task<Int32, Never>

    private init(pid: pid_t, path: String, ended: Locked<Bool>, status: Task<Int32, Never>) {
        self.pid = pid
        self.path = path
        self.ended = ended
        self.status = status
    }

    /// Starts `path`, its stdout and stderr going to `log`.
    static func launch(_ path: String, _ arguments: [String], environment: [String: String], log: String) async throws -> ChildProcess {
        let descriptor = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FprintdHarnessError("cannot open \(log): \(String(cString: strerror(errno)))")
        }
        var options = PlatformOptions()
        options.processGroupID = 0
        let configuration = Configuration(
            executable: .path(FilePath(path)), arguments: Arguments(arguments),
            environment: .custom(environment.map { Array("\($0.key)=\($0.value)\0".utf8) }), platformOptions: options)
        let ended = Locked(false)
        let (started, starting) = AsyncStream.makeStream(of: Result<pid_t, any Error>.self)
        let status = Task {
            do {
                let result = try await Subprocess.run(
                    configuration, input: .none,
                    output: .fileDescriptor(FileDescriptor(rawValue: descriptor), closeAfterSpawningProcess: true),
                    error: .combinedWithOutput
                ) { execution in
                    let pid = execution.processIdentifier.value
                    starting.yield(.success(pid))
                    await waitUntilEnded(pid, ended: ended)
                }
                return switch result.terminationStatus {
                case .exited(let code): code
                case .signaled(let signal): 128 + signal
                }
            } catch {
                starting.yield(.failure(error))
                ended.withLock { $0 = true }
                return -1
            }
        }
        // The first result is the start's: the pid, or why there is none.
        var results = started.makeAsyncIterator()
        switch await results.next() {
        case .success(let pid):
            return ChildProcess(pid: pid, path: path, ended: ended, status: status)
        case .failure(let error):
            throw FprintdHarnessError("cannot start \(path): \(error)")
        case nil:
            throw FprintdHarnessError("cannot start \(path)")
        }
    }

    /// Returns once `pid` has ended, having marked it so, and leaves it to
    /// be reaped: waitid(WNOWAIT) on a thread of its own, since it blocks.
    private static func waitUntilEnded(_ pid: pid_t, ended: Locked<Bool>) async {
        _ = await DedicatedThread.run(name: "sesame-waitpid") {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
            ended.withLock { $0 = true }
        }
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
        let child = try await launch(path, arguments, environment: environment, log: outputFile)
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
        return (await child.status.value, output)
    }

    var isRunning: Bool { !ended.withLock { $0 } }

    /// The exit status (128 + signal for a signal) once the child has
    /// ended, else `nil`; never waits for a running child.
    var exitStatus: Int32? {
        get async { isRunning ? nil : await status.value }
    }

    /// Sends `signal` unless the child has ended; whether it was sent.
    private func send(_ signal: Int32) -> Bool {
        // Under the lock: the child cannot be reaped, and its pid reused,
        // between the check and the kill.
        ended.withLock { ended in
            if !ended { kill(pid, signal) }
            return !ended
        }
    }

    /// SIGTERM, then SIGKILL after 2.5 s; by PID, never by name. Returns
    /// once the child has ended (swift-subprocess reaps it).
    func terminate() {
        guard send(SIGTERM) else { return }
        for _ in 0..<1250 where isRunning {
            usleep(2_000)
        }
        if send(SIGKILL) {
            for _ in 0..<1000 where isRunning {
                usleep(2_000)
            }
        }
    }
}
#endif
