#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sesame

/// `sesame ssh-agent --print-env` and `--kill`: one background agent per
/// socket, however many shells `eval` the same line.
///
/// A shell's rc file runs `eval "$(sesame ssh-agent --print-env)"` in every
/// new shell: the first starts the agent, every later one finds it answering
/// on its socket and prints the same `SSH_AUTH_SOCK` and `SSH_AGENT_PID`.
/// Shells that start together are ordered by a lock beside the socket, so two
/// of them never start two agents that fight over one path. The pid printed
/// and signalled is the one the kernel says listens on the socket, never a
/// pid a dead agent left behind; and a socket is printed or signalled only
/// in a folder that is this user's alone, served by this user's process of
/// this very program (``PrivateSocket/trustedServer(at:)``): a folder in
/// `/tmp` that another user made first, or another program listening, is
/// refused with the reason, `SSH_AUTH_SOCK` unprinted.
///
/// A new agent is started without `--print-env`, detached
/// (``ProcessStart/detached(_:_:input:standardError:)``: its own session, so
/// `$(…)` returns and closing the terminal leaves it running), with its
/// standard error on its log (``DaemonLog``).
enum AgentLauncher {
    /// Prints the shell lines for the agent on `socketPath`, starting it first
    /// unless one already answers there.
    static func printEnvironment(socketPath: String, arguments: [String]) async throws {
        let lock = try await AgentFiles.lock(socketPath)
        defer { close(lock) }
        switch try AgentFiles.trustedServer(socketPath) {
        case .sameProgram(let pid):
            printLines(socketPath: socketPath, pid: pid)
            return
        case .systemd:
            // An agent systemd's socket unit serves has no pid of its own to print.
            printLines(socketPath: socketPath, pid: nil)
            return
        case nil: break
        }
        let pid = try await start(socketPath: socketPath, arguments: arguments)
        printLines(socketPath: socketPath, pid: pid)
    }

    /// Stops the Sesame agent listening on `socketPath`, as `ssh-agent -k`
    /// does, and prints the lines that unset its variables.
    static func stop(socketPath: String) async throws {
        let lock = try await AgentFiles.lock(socketPath)
        defer { close(lock) }
        let pid: pid_t
        switch try AgentFiles.trustedServer(socketPath) {
        case .sameProgram(let running): pid = running
        case .systemd:
            throw CommandFailure(status: .notFound, message: "the agent on \(socketPath.escapingControlCharacters()) is systemd's socket unit: stop it with `systemctl --user stop \(UserUnit.sshAgentSocket.name) \(UserUnit.sshAgent.name)`")
        case nil:
            throw CommandFailure(status: .notFound, message: "no Sesame agent is running on \(socketPath.escapingControlCharacters())")
        }
        _ = kill(pid, SIGTERM)
        for _ in 0..<50 where kill(pid, 0) == 0 {
            try await Task.sleep(for: .milliseconds(100))
        }
        if kill(pid, 0) == 0 { _ = kill(pid, SIGKILL) }
        unlink(socketPath)
        print("unset SSH_AUTH_SOCK;")
        print("unset SSH_AGENT_PID;")
        print("echo Agent pid \(pid) killed;")
    }

    private static func printLines(socketPath: String, pid: pid_t?) {
        let quoted = "'" + socketPath.replacingOccurrences(of: "'", with: "'\\''") + "'"
        print("SSH_AUTH_SOCK=\(quoted); export SSH_AUTH_SOCK;")
        if let pid {
            print("SSH_AGENT_PID=\(pid); export SSH_AGENT_PID;")
        } else {
            // A pid from an earlier agent must not linger where `ssh-agent -k` would signal it.
            print("unset SSH_AGENT_PID;")
        }
    }

    private static func start(socketPath: String, arguments: [String]) async throws -> pid_t {
        // ssh's user hears only "agent refused operation": the reason goes to a file the README names, not to /dev/null.
        let log = DaemonLog.path(of: "ssh-agent", environment: ProcessInfo.processInfo.environment)
        let opened = DaemonLog.openLog(log)
        guard let descriptor = opened.descriptor else {
            throw CommandFailure(status: .failure, message: "the agent's log cannot be kept: \(opened.problem ?? log)")
        }
        // Where this agent's lines begin: its reason to stop is among them.
        let logStart = lseek(descriptor, 0, SEEK_END)
        let pid: pid_t
        do {
            pid = try await ProcessStart.detached(
                AgentFiles.executable, arguments.filter { $0 != "--print-env" } + (arguments.contains("--socket") ? [] : ["--socket", socketPath]),
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
            // Answering, and by the agent just started: a dead agent's socket file refuses connections.
            if AgentFiles.answers(socketPath), isRunning() { return pid }
            guard isRunning() else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        if isRunning() { _ = kill(pid, SIGTERM) }
        // Its own last line says why, so the owner need not start
        // `sesame ssh-agent` again by hand to find out.
        guard let why = lastLine(of: log, from: max(logStart, 0)) else {
            throw CommandFailure(status: .failure, message: "the agent did not start and said nothing in \(log)")
        }
        throw CommandFailure(status: .failure, message: "the agent did not start: \(why) (its log: \(log))")
    }

    /// The last non-empty line written to `path` past `offset`, escaped
    /// (it may quote a name from outside, SPEC D9); at most its last 4 KiB
    /// are read.
    static func lastLine(of path: String, from offset: off_t) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let end = lseek(descriptor, 0, SEEK_END)
        let start = max(offset, end - 4096)
        guard end > start, lseek(descriptor, start, SEEK_SET) == start else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }
            .map { String($0).escapingControlCharacters() }
    }
}
