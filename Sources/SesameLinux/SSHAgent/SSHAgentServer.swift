#if os(Linux)
import CSesameLinux
import Foundation
import Glibc
import Sesame

/// Serves an ``Sesame/SSHAgent`` on a UNIX socket (issue 15): the socket in a
/// 0700 directory, itself 0600, and every client's user checked with
/// `SO_PEERCRED` — another user's connection is closed unanswered.
///
/// Each connection is read on a thread of its own (blocking reads never run
/// on Swift's cooperative pool). Frames are length-checked before anything
/// is allocated: a body over 256 KiB, an empty one or a truncated one closes
/// the connection; a malformed one is answered with failure. While a request
/// prompts, the connection is watched: a client that hangs up cancels its
/// prompt.
public final class SSHAgentServer: Sendable {
    /// Why the server could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, in words.
        public let description: String
    }

    /// The socket's path (empty for a socket systemd passed).
    public let path: String
    private let listener: Int32
    private let agent: SSHAgent

    /// Creates the socket at `path`: its directory is created 0700 (and must
    /// be private), a stale socket left by a dead agent is replaced, a live
    /// one is not.
    ///
    /// - Parameters:
    ///   - agent: Answers the requests.
    ///   - path: The socket's path.
    /// - Throws: ``StartError``.
    public init(agent: SSHAgent, path: String) throws(StartError) {
        self.agent = agent
        self.path = path
        let directory = PrivateFile.parentDirectory(of: path)
        do {
            try PrivateFile.createDirectories(directory)
            try PrivateFile.requirePrivate(directory)
        } catch {
            throw StartError(description: "\(directory): \(error)")
        }
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw StartError(description: "\(path) is too long for a UNIX socket")
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw StartError(description: "\(path) exists and is not a socket; Sesame will not replace it") }
            if Self.isListening(path) { throw StartError(description: "an agent is already listening on \(path)") }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw StartError(description: "socket: \(Self.errorText())") }
        // 0600 from the first instant: no window in which others may connect.
        let previous = umask(0o177)
        let bound = Self.withAddress(path) { bind(descriptor, $0, $1) }
        umask(previous)
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let text = Self.errorText()
            close(descriptor)
            throw StartError(description: "cannot listen on \(path): \(text)")
        }
        listener = descriptor
    }

    /// Serves on a socket systemd passed (socket activation, `LISTEN_FDS`).
    ///
    /// - Parameters:
    ///   - agent: Answers the requests.
    ///   - listeningDescriptor: The listening socket.
    public init(agent: SSHAgent, listeningDescriptor: Int32) {
        self.agent = agent
        path = ""
        listener = listeningDescriptor
    }

    /// The listening socket systemd passed to this process, if any
    /// (`LISTEN_PID` is this process and `LISTEN_FDS` ≥ 1: descriptor 3).
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The descriptor, or `nil`.
    public static func systemdSocket(environment: [String: String]) -> Int32? {
        guard environment["LISTEN_PID"].flatMap(Int32.init) == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1 else { return nil }
        return 3
    }

    /// Accepts connections until the process ends; each is served on a
    /// thread of its own. Returns at once: the accepting runs on its own thread.
    public func start() {
        let listener = self.listener
        let agent = self.agent
        let thread = Thread {
            while true {
                let client = sesame_socket_accept(listener)
                if client < 0 {
                    if [EINTR, ECONNABORTED, EMFILE, ENFILE].contains(-client) { continue }
                    return
                }
                guard Self.peerIsThisUser(client) else {
                    close(client)
                    continue
                }
                Thread { AgentConnectionLoop(descriptor: client, agent: agent).run() }.start()
            }
        }
        thread.start()
    }

    // MARK: Helpers

    static func peerIsThisUser(_ descriptor: Int32) -> Bool {
        var uid: UInt32 = 0
        return sesame_socket_peer_uid(descriptor, &uid) == 0 && uid == geteuid()
    }

    private static func isListening(_ path: String) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return withAddress(path) { connect(probe, $0, $1) } == 0
    }

    private static func withAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
#endif
