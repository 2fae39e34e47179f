import Foundation
import Glibc
import Synchronization

/// OpenSSH's `ssh-agent -D` for one benchmark process, which cannot outlive
/// it. A shell keeper starts the agent and then reads a pipe whose only
/// writer is this process; end-of-file there means this process is gone or
/// done (a normal exit, a failed precondition, kill -9: the kernel closes
/// the pipe on every one of them, where an exit hook runs only on some), and
/// the keeper then kills the agent with SIGKILL, waits for it and removes
/// the directory (the vault and both sockets with it). On a normal exit
/// ``stopAll()`` does the same and waits, so no agent is left when the
/// process has ended.
///
/// The agent and its keeper write to /dev/null and hold no other descriptor
/// of ours: an agent left holding the benchmark plugin's output pipe is what
/// made the plugin hang until it was killed.
final class OpenSSHAgent: Sendable {
    /// The agent's socket (`SSH_AUTH_SOCK`).
    let socket: String
    private let keeper: pid_t
    /// The pipe's writing end; -1 once closed.
    private let lifeline: Mutex<Int32>

    private static let started = Mutex<[OpenSSHAgent]>([])
    private static let exitHook: Void = { atexit { OpenSSHAgent.stopAll() } }()

    // Ignores the signals a terminal sends its whole process group, so that
    // Ctrl-C ends the benchmark first and the keeper still cleans up.
    private static let script = """
    trap '' INT QUIT HUP TERM
    /usr/bin/ssh-agent -D -a "$1" </dev/null >/dev/null 2>&1 &
    agent=$!
    read -r line
    kill -9 "$agent"
    wait "$agent"
    rm -rf "$2"
    """

    /// Starts the agent on `directory/openssh.sock` and waits for its socket.
    ///
    /// - Parameter directory: A private directory, removed when the agent stops.
    init(directory: String) throws {
        _ = Self.exitHook
        socket = directory + "/openssh.sock"
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnFailure("pipe: \(String(cString: strerror(errno)))") }
        // Only this process may hold the writing end, or the keeper would not see it go.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Not the runner's pipes to the plugin, whatever their close-on-exec flag.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
        // Defaults and an empty mask: a thread of the pool may block signals
        // the keeper's children would otherwise inherit blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = ["/bin/sh", "-c", Self.script, "sh", socket, directory]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        close(ends[0])
        guard status == 0 else {
            close(ends[1])
            throw SpawnFailure("posix_spawn /bin/sh: \(String(cString: strerror(status)))")
        }
        keeper = pid
        lifeline = Mutex(ends[1])
        Self.started.withLock { $0.append(self) }
        for _ in 0..<500 where access(socket, F_OK) != 0 { usleep(10_000) }
        guard access(socket, F_OK) == 0 else {
            stop()
            throw SpawnFailure("ssh-agent made no socket at \(socket)")
        }
    }

    /// Closes the lifeline and waits for the keeper: the agent is killed and
    /// reaped, and the directory removed, when this returns.
    func stop() {
        let descriptor = lifeline.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor
        }
        guard descriptor >= 0 else { return }
        close(descriptor)
        var status: Int32 = 0
        while waitpid(keeper, &status, 0) < 0, errno == EINTR {}
    }

    /// Stops every agent this process started; the exit hook.
    static func stopAll() {
        for agent in started.withLock({ $0 }) { agent.stop() }
    }
}

/// An agent that could not be started.
struct SpawnFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
