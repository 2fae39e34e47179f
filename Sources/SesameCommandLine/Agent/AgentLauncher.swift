#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `sesame ssh-agent --print-env`: the agent is started again without that
/// flag, detached (``ProcessStart/detached(_:_:input:standardError:)``: its
/// own session, so `$(…)` returns and closing the terminal leaves it running)
/// with its standard error on its log (``DaemonLog``), and once its socket
/// answers, the shell lines that point ssh at it are printed.
enum AgentLauncher {
    static func startInBackground(socketPath: String, arguments: [String]) async throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        // ssh's user hears only "agent refused operation": the reason goes to a file the README names, not to /dev/null.
        let log = DaemonLog.path(of: "ssh-agent", environment: ProcessInfo.processInfo.environment)
        let opened = DaemonLog.openLog(log)
        guard let descriptor = opened.descriptor else {
            throw CommandFailure(status: .failure, message: "the agent's log cannot be kept: \(opened.problem ?? log)")
        }
        let started = Date().addingTimeInterval(-1)
        let pid: pid_t
        do {
            pid = try await ProcessStart.detached(
                executable, arguments.filter { $0 != "--print-env" } + (arguments.contains("--socket") ? [] : ["--socket", socketPath]),
                standardError: descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        func isRunning() -> Bool {
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == 0
        }
        for _ in 0..<100 {
            // The new agent's socket, not a stale one a dead agent left.
            let made = (try? FileManager.default.attributesOfItem(atPath: socketPath)[.modificationDate]) as? Date
            if let made, made >= started, isRunning() {
                let quoted = "'" + socketPath.replacingOccurrences(of: "'", with: "'\\''") + "'"
                print("SSH_AUTH_SOCK=\(quoted); export SSH_AUTH_SOCK;")
                print("SESAME_SSH_AGENT_PID=\(pid); export SESAME_SSH_AGENT_PID;")
                return
            }
            guard isRunning() else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        if isRunning() { kill(pid, SIGTERM) }
        throw CommandFailure(status: .failure, message: "the agent did not start (run `sesame ssh-agent` in the foreground to see why, or read \(log))")
    }
}
