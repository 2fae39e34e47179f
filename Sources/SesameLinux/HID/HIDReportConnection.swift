#if os(Linux)
import Glibc
import Sesame

/// One client of a ``HIDReportSocketServer``: the 64-byte reports it sends,
/// in order, and a way to send it reports. Its socket is read and written
/// on a thread of its own (poll on non-blocking I/O), never on Swift's
/// cooperative pool.
///
/// The byte stream is cut into reports of exactly 64 bytes whatever the
/// writes' sizes; a partial report left when the client closes is dropped.
/// What it may hold is bounded (SPEC P5): 1024 reports wait unread (a
/// client that writes faster than they are read loses the newest), 4096
/// wait unsent (beyond that ``send(_:)`` refuses).
public final class HIDReportConnection: Sendable {
    /// The size of every report.
    public static let reportSize = 64
    private static let maximumUnsent = 4096

    /// The client's reports, 64 bytes each; ends when the client closes the
    /// connection or ``close()`` is called.
    public let reports: AsyncStream<[UInt8]>
    /// The client's process, as the kernel recorded it when it connected (`SO_PEERCRED`).
    public let peerProcess: Int32
    /// The client as the owner's dialogs name it: its executable's path
    /// when it connected and its pid, e.g. "`/usr/bin/firefox` (pid 4242)",
    /// control characters escaped; `nil` when `/proc` does not say (gone,
    /// another pid namespace). The program chose that path: it informs the
    /// owner and decides nothing.
    public let client: String?

    private struct State {
        var unsent: [UInt8] = []
        var closed = false
    }

    private let state: Locked<State>
    private let wake: WakePipe

    /// Serves an accepted, non-blocking socket on a new thread; `nil` when
    /// no thread or pipe could be made (the socket is then closed).
    ///
    /// - Parameters:
    ///   - descriptor: The socket, owned by the connection from now on.
    ///   - peerProcess: The client's process id.
    init?(descriptor: Int32, peerProcess: Int32) {
        guard let wake = WakePipe() else {
            Glibc.close(descriptor)
            return nil
        }
        let state = Locked(State())
        let reports = ReportReader.start(name: "sesame-hid-conn") { input in
            Self.run(descriptor: descriptor, wake: wake, state: state, input: input)
        }
        guard let reports else {
            Glibc.close(descriptor)
            return nil
        }
        self.wake = wake
        self.peerProcess = peerProcess
        client = ProcessExecutable.path(of: peerProcess).map { "`\($0.escapingControlCharacters())` (pid \(peerProcess))" }
        self.state = state
        self.reports = reports
    }

    /// Queues one report for the client.
    ///
    /// - Parameter report: Exactly 64 bytes.
    /// - Returns: `false` when the report is not 64 bytes, the connection is
    ///   closed, or 4096 reports already wait unsent.
    @discardableResult
    public func send(_ report: [UInt8]) -> Bool {
        guard report.count == Self.reportSize else { return false }
        let queued = state.withLock { state in
            guard !state.closed, state.unsent.count < Self.maximumUnsent * Self.reportSize else { return false }
            state.unsent += report
            return true
        }
        if queued { wake.wake() }
        return queued
    }

    /// Whether the connection is over (closed by either side).
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Closes the connection; reports not yet sent are dropped.
    public func close() {
        state.withLock { $0.closed = true }
        wake.wake()
    }

    // MARK: The connection's thread

    private static func run(descriptor: Int32, wake: WakePipe, state: Locked<State>, input: AsyncStream<[UInt8]>.Continuation) {
        defer {
            state.withLock { $0.closed = true }
            input.finish()
            Glibc.close(descriptor)
        }
        var partial: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let (closed, pending) = state.withLock { ($0.closed, !$0.unsent.isEmpty) }
            if closed { return }
            let wanted = Int16(POLLIN) | (pending ? Int16(POLLOUT) : 0)
            guard let events = wake.wait(for: descriptor, events: wanted) else { return }
            if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return }
                if count > 0 {
                    partial += buffer[0..<count]
                    var start = 0
                    while partial.count - start >= reportSize {
                        input.yield(Array(partial[start..<(start + reportSize)]))
                        start += reportSize
                    }
                    partial.removeFirst(start)
                }
            }
            if events & Int16(POLLOUT) != 0, !flush(descriptor, state: state) { return }
        }
    }

    /// Writes what the socket takes now; `false` when the client is gone.
    private static func flush(_ descriptor: Int32, state: Locked<State>) -> Bool {
        let unsent = state.withLock { $0.unsent }
        let written = unsent.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written < 0 { return errno == EAGAIN || errno == EINTR }
        state.withLock { $0.unsent.removeFirst(written) }
        return true
    }
}
#endif
