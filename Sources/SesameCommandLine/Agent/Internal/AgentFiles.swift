#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sesame

/// A background agent's socket, who listens on it (the kernel says, not a
/// pid file), and `<socket>.lock`, which orders the shells that start it.
enum AgentFiles {
    /// This binary, resolved: what a recorded agent must be running.
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

    /// Whether something accepts connections on `socketPath` now.
    static func answers(_ socketPath: String) -> Bool {
        guard let descriptor = PrivateSocket.connect(to: socketPath) else { return false }
        close(descriptor)
        return true
    }

    /// The process listening on `socketPath`, as the kernel recorded it
    /// (`SO_PEERCRED`): the agent, or systemd for a socket unit's socket.
    static func listener(_ socketPath: String) -> (pid: pid_t, uid: uid_t)? {
        guard let descriptor = PrivateSocket.connect(to: socketPath) else { return nil }
        defer { close(descriptor) }
        return PrivateSocket.peer(of: descriptor)
    }

    /// Whether `executable` (a /proc/PID/exe) is a Sesame binary.
    static func isSesame(_ executable: String?) -> Bool {
        guard let running = executable?.replacingOccurrences(of: " (deleted)", with: "") else { return false }
        return running == self.executable || (running as NSString).lastPathComponent == "sesame"
    }

    /// Takes `<socket>.lock`, making the socket's folder (0700) first and
    /// refusing one that is not this user's alone: a lock in another user's
    /// folder is theirs to hold; waits up to 30 seconds for another shell
    /// that holds it.
    static func lock(_ socketPath: String) async throws -> Int32 {
        do {
            try PrivateSocket.preparePrivateFolder(of: socketPath)
        } catch {
            throw untrusted(error)
        }
        let descriptor = open(socketPath + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure(status: .failure, message: "cannot open \(socketPath).lock: \(String(cString: strerror(errno)))")
        }
        // Polled rather than a blocking flock, which would hold a thread of the concurrency pool.
        for _ in 0..<300 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return descriptor }
            try await Task.sleep(for: .milliseconds(100))
        }
        close(descriptor)
        throw CommandFailure(status: .failure, message: "another shell has been starting the agent on \(socketPath) for 30 seconds")
    }

    /// The agent on `socketPath` when it may be trusted with a key
    /// (``PrivateSocket/trustedServer(at:)``: this user's folder and socket,
    /// served by this user's process of this very program, or by systemd's
    /// socket unit); `nil` when none serves it.
    ///
    /// - Throws: ``CommandFailure`` (`untrusted`) saying why it is not.
    static func trustedServer(_ socketPath: String) throws -> PrivateSocket.Server? {
        do {
            return try PrivateSocket.trustedServer(at: socketPath)
        } catch {
            throw untrusted(error)
        }
    }

    private static func untrusted(_ failure: PrivateSocket.Failure) -> CommandFailure {
        CommandFailure(status: .untrusted, message: "\(failure); remove it, or use another socket (set XDG_RUNTIME_DIR, or --socket)")
    }
}
