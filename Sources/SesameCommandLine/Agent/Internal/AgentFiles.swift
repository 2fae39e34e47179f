#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A background agent's socket, who listens on it (the kernel says, not a
/// pid file), and `<socket>.lock`, which orders the shells that start it.
enum AgentFiles {
    /// This binary, resolved: what a recorded agent must be running.
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

    /// Whether something accepts connections on `socketPath` now.
    static func answers(_ socketPath: String) -> Bool {
        guard let descriptor = connected(socketPath) else { return false }
        close(descriptor)
        return true
    }

    /// The process listening on `socketPath`, as the kernel recorded it
    /// (`SO_PEERCRED`): the agent, or systemd for a socket unit's socket.
    static func listener(_ socketPath: String) -> (pid: pid_t, uid: uid_t)? {
        guard let descriptor = connected(socketPath) else { return nil }
        defer { close(descriptor) }
        // struct ucred: pid, uid, gid (Glibc's module hides the type).
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.0 > 0 else { return nil }
        return (credentials.0, credentials.1)
    }

    private static func connected(_ socketPath: String) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Whether `executable` (a /proc/PID/exe) is a Sesame binary.
    static func isSesame(_ executable: String?) -> Bool {
        guard let running = executable?.replacingOccurrences(of: " (deleted)", with: "") else { return false }
        return running == self.executable || (running as NSString).lastPathComponent == "sesame"
    }

    /// Takes `<socket>.lock`, making the socket's directory (0700) first;
    /// waits up to 30 seconds for another shell that holds it.
    static func lock(_ socketPath: String) async throws -> Int32 {
        let directory = (socketPath as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: directory) {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
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

    /// The Sesame agent listening on `socketPath`: the process the kernel
    /// says listens there, when it is this user's and runs a Sesame binary
    /// (a socket unit's socket is systemd's, and gives `nil`).
    static func runningPid(_ socketPath: String) -> pid_t? {
        guard let listener = listener(socketPath), listener.uid == geteuid() else { return nil }
        // A binary replaced by an upgrade reads "… (deleted)": still the agent this path started.
        guard isSesame(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(listener.pid)/exe")) else { return nil }
        return listener.pid
    }
}
