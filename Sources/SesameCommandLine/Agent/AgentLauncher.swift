import Foundation

/// `sesame ssh-agent --print-env`: the agent is started again without that
/// flag, detached from this process's output (so `$(…)` returns) with its
/// standard error on its log (``DaemonLog``), and once its socket answers,
/// the shell lines that point ssh at it are printed.
enum AgentLauncher {
    static func startInBackground(socketPath: String, arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments.filter { $0 != "--print-env" } + (arguments.contains("--socket") ? [] : ["--socket", socketPath])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        // ssh's user hears only "agent refused operation": the reason goes to a file the README names, not to /dev/null.
        let log = DaemonLog.path(of: "ssh-agent", environment: ProcessInfo.processInfo.environment)
        let opened = DaemonLog.openLog(log)
        guard let descriptor = opened.descriptor else {
            throw CommandFailure(status: .failure, message: "the agent's log cannot be kept: \(opened.problem ?? log)")
        }
        process.standardError = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let started = Date().addingTimeInterval(-1)
        try process.run()
        for _ in 0..<100 {
            // The new agent's socket, not a stale one a dead agent left.
            let made = (try? FileManager.default.attributesOfItem(atPath: socketPath)[.modificationDate]) as? Date
            if let made, made >= started, process.isRunning {
                let quoted = "'" + socketPath.replacingOccurrences(of: "'", with: "'\\''") + "'"
                print("SSH_AUTH_SOCK=\(quoted); export SSH_AUTH_SOCK;")
                print("SESAME_SSH_AGENT_PID=\(process.processIdentifier); export SESAME_SSH_AGENT_PID;")
                return
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        if process.isRunning { process.terminate() }
        throw CommandFailure(status: .failure, message: "the agent did not start (run `sesame ssh-agent` in the foreground to see why)")
    }
}
