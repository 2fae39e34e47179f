#if os(Linux)
import Glibc
import Sesame

/// Serves 64-byte HID reports on a Unix stream socket, for FIDO clients
/// that speak CTAPHID without a kernel HID device (a test client, a
/// browser's virtual-device shim): the socket is 0600 in a private (0700)
/// directory, and every client's user is checked with `SO_PEERCRED`:
/// another user's connection is closed unanswered.
///
/// It only moves reports: each connection's reports go to the handler
/// given to ``serve(_:)`` (the CLI puts a CTAPHID server behind it).
/// Accepting runs on a thread of its own, polling non-blocking sockets, and
/// so does each connection; at most ``maximumConnections`` are served at
/// once, more are closed unanswered.
public final class HIDReportSocketServer: Sendable {
    /// Connections served at once.
    public static let maximumConnections = 16

    /// The socket's path.
    public let path: String
    private let listener: Int32
    private let wake: WakePipe
    private let state = Locked((closed: false, serving: false, connections: [HIDReportConnection]()))

    /// Creates the socket: its directory is created 0700 (and must be
    /// private to this user), a stale socket left by a dead server is
    /// replaced, a live one is not.
    ///
    /// - Parameter path: The socket's path.
    /// - Throws: ``HIDTransportError`` naming the path and the reason.
    public init(path: String) throws(HIDTransportError) {
        self.path = path
        guard let wake = WakePipe() else { throw HIDTransportError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        do {
            listener = try PrivateSocket.listen(at: path, nonBlocking: true)
        } catch {
            throw HIDTransportError(error.description)
        }
        self.wake = wake
    }

    deinit {
        if !state.withLock({ $0.serving }) { Glibc.close(listener) }
    }

    /// Accepts connections until ``close()``, running `handler` once for
    /// each (as a task of its own); a connection is closed when its handler
    /// returns.
    ///
    /// - Parameter handler: Serves one connection.
    /// - Throws: ``HIDTransportError`` when no thread can be made or the
    ///   server was already served or closed.
    public func serve(_ handler: @escaping @Sendable (HIDReportConnection) async -> Void) async throws(HIDTransportError) {
        let startable = state.withLock { state in
            defer { state.serving = true }
            return !state.closed && !state.serving
        }
        guard startable else { throw HIDTransportError("\(path) is already served or closed") }
        let (accepted, input) = AsyncStream.makeStream(of: HIDReportConnection.self)
        let (listener, wake, state, path) = (self.listener, self.wake, self.state, self.path)
        let started = DedicatedThread.detach(name: "sesame-hid-sock") {
            Self.accept(listener: listener, wake: wake, state: state, into: input)
            Glibc.close(listener)
            unlink(path)
            input.finish()
        }
        guard started else {
            input.finish()
            throw HIDTransportError("cannot start a thread to serve \(path)")
        }
        for await connection in accepted {
            Task {
                await handler(connection)
                connection.close()
            }
        }
    }

    /// Stops accepting, removes the socket, and closes every connection.
    public func close() {
        let connections = state.withLock { state in
            state.closed = true
            return state.connections
        }
        wake.wake()
        for connection in connections { connection.close() }
    }

    // MARK: The accepting thread

    private static func accept(
        listener: Int32, wake: WakePipe, state: Locked<(closed: Bool, serving: Bool, connections: [HIDReportConnection])>,
        into input: AsyncStream<HIDReportConnection>.Continuation
    ) {
        while !state.withLock({ $0.closed }) {
            guard let events = wake.wait(for: listener, events: Int16(POLLIN)) else { return }
            guard events != 0 else { continue }
            // accept4 is hidden by Glibc's module; flags are set just after.
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else {
                // At the descriptor limit, wait for a connection to end rather than spin.
                if errno == EMFILE || errno == ENFILE { usleep(100_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, O_NONBLOCK)
            let admitted = state.withLock { state in
                state.connections.removeAll { $0.isClosed }
                return !state.closed && state.connections.count < maximumConnections
            }
            guard admitted, let process = peerProcess(client) else {
                Glibc.close(client)
                continue
            }
            guard let connection = HIDReportConnection(descriptor: client, peerProcess: process) else { continue }
            state.withLock { $0.connections.append(connection) }
            input.yield(connection)
        }
    }

    /// The client's process when it runs as this user (`SO_PEERCRED`), else `nil`.
    private static func peerProcess(_ descriptor: Int32) -> Int32? {
        guard let peer = PrivateSocket.peer(of: descriptor), peer.uid == geteuid() else { return nil }
        return peer.pid
    }
}
#endif
