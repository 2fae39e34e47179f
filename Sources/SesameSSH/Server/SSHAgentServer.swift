#if os(Linux)
import Foundation
import Glibc
import NIOCore
import NIOPosix
import Sesame

/// Serves an `SSHAgent` on a UNIX socket: the socket in a 0700 directory,
/// itself 0600, and every client's user checked with `SO_PEERCRED` —
/// another user's connection is closed unanswered.
///
/// Connections are served on one SwiftNIO event loop, not a thread each,
/// and what clients can hold is bounded: when accepting fails (`EMFILE`,
/// `ENFILE` at the descriptor limit) accepting pauses for a second instead
/// of retrying at once; frames are read as their bytes arrive, so a client
/// holds only what it sent, never the 256 KiB its header announces; a frame
/// begun must be complete within ``Limits/frameTimeout``; clients beyond
/// ``Limits/maximumConnections`` are closed unanswered. A body over 256 KiB
/// or an empty one closes the connection; a malformed one is answered with
/// failure. Requests are answered by `SSHAgent` off the event loop,
/// one at a time per connection; a client that hangs up cancels its prompt.
public final class SSHAgentServer: Sendable {
    /// What one agent lets its clients hold.
    public struct Limits: Sendable {
        /// Concurrent connections served; more are closed unanswered.
        public let maximumConnections: Int
        /// How long a frame that has begun may take to arrive whole.
        public let frameTimeout: Duration

        /// - Parameters:
        ///   - maximumConnections: Concurrent connections served (at least 1).
        ///   - frameTimeout: How long a begun frame may take (at least 1 ms).
        public init(maximumConnections: Int = 512, frameTimeout: Duration = .seconds(20)) {
            self.maximumConnections = max(1, maximumConnections)
            self.frameTimeout = max(.milliseconds(1), frameTimeout)
        }
    }

    /// Why the server could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, in words.
        public let description: String
    }

    /// The socket's path (empty for a socket systemd passed).
    public let path: String
    private let listener: Int32
    private let agent: SSHAgent
    private let limits: Limits

    /// Creates the socket at `path`: its directory is created 0700 (and must
    /// be private), a stale socket left by a dead agent is replaced, a live
    /// one is not.
    ///
    /// - Parameters:
    ///   - agent: Answers the requests.
    ///   - path: The socket's path.
    ///   - limits: What clients may hold.
    /// - Throws: ``StartError``.
    public init(agent: SSHAgent, path: String, limits: Limits = Limits()) throws(StartError) {
        self.agent = agent
        self.limits = limits
        self.path = path
        do {
            listener = try PrivateSocket.listen(at: path)
        } catch {
            throw StartError(description: error.description)
        }
    }

    /// Serves on a socket systemd passed (socket activation, `LISTEN_FDS`).
    ///
    /// - Parameters:
    ///   - agent: Answers the requests.
    ///   - listeningDescriptor: The listening socket.
    ///   - limits: What clients may hold.
    public init(agent: SSHAgent, listeningDescriptor: Int32, limits: Limits = Limits()) {
        self.agent = agent
        self.limits = limits
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

    /// Accepts connections until the process ends, on an event loop thread
    /// of its own; returns once the socket is served.
    ///
    /// Every client's user is checked with `SO_PEERCRED` before anything is
    /// read: another user's connection is closed unanswered.
    ///
    /// - Throws: ``StartError`` when the socket cannot be served.
    public func start() async throws(StartError) {
        let (agent, limits) = (self.agent, self.limits)
        let frameTimeout = TimeAmount.nanoseconds(Self.nanoseconds(limits.frameTimeout))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // NIO adds its AcceptBackoffHandler after these; AgentListenerHandler
        // pauses accepting itself, since NIO's alone can still spin (see there).
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AgentListenerHandler(maximum: limits.maximumConnections))
                }
            }
            .childChannelInitializer { channel in
                PeerCredentials.requireThisUser(channel).flatMapThrowing { client in
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(AgentFrameDecoder()),
                        AgentConnectionHandler(agent: agent, frameTimeout: frameTimeout, clientProcess: client.pid)
                    )
                }
            }
        do {
            _ = try await bootstrap.withBoundSocket(listener).get()
        } catch {
            try? await group.shutdownGracefully()
            throw StartError(description: "cannot serve \(path.isEmpty ? "the socket systemd passed" : path): \(error)")
        }
    }

    // MARK: Helpers

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow ? Int64.max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
#endif
