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
        let directory = PrivateFile.parentDirectory(of: path)
        do {
            try PrivateFile.createDirectories(directory)
            try PrivateFile.requirePrivate(directory)
        } catch {
            throw HIDTransportError("\(directory): \(error); the report socket's directory must be this user's alone (mode 0700)")
        }
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw HIDTransportError("\(path) is too long for a Unix socket")
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw HIDTransportError("\(path) exists and is not a socket; it is not replaced") }
            if Self.isListening(path) { throw HIDTransportError("a server is already listening on \(path)") }
            unlink(path)
        }
        guard let wake = WakePipe() else { throw HIDTransportError("cannot make a pipe: \(Self.errorText())") }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw HIDTransportError("socket: \(Self.errorText())") }
        // 0600 from the first instant: no window in which others may connect.
        let previous = umask(0o177)
        let bound = Self.withAddress(path) { bind(descriptor, $0, $1) }
        umask(previous)
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let text = Self.errorText()
            Glibc.close(descriptor)
            throw HIDTransportError("cannot listen on \(path): \(text)")
        }
        listener = descriptor
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
        // struct ucred: pid, uid, gid (Glibc's module hides the type).
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.1 == geteuid() else { return nil }
        return credentials.0
    }

    // MARK: Helpers

    private static func isListening(_ path: String) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
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

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
#endif
