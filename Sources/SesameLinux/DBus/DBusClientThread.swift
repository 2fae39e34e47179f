#if os(Linux)
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One ``DBusClient`` kept open across calls, on a ``DedicatedThread`` of
/// its own: for a peer that ties state to the connection, as fprintd ties a
/// `Claim` to the connection that made it and releases it when that
/// connection closes.
///
/// An sd-bus connection is single-threaded and a wait for a signal blocks in
/// `sd_bus_wait`, so the connection cannot live on Swift's cooperative pool:
/// every job runs here, in order, and results go back through continuations.
/// ``DBusClient/withConnection(address:name:_:)`` is the form for one job.
package final class DBusClientThread: Sendable {
    /// The connection as the thread alone sees it: opened by the first job.
    private final class Connection {
        let address: String?
        var client: DBusClient?

        init(address: String?) {
            self.address = address
        }

        func open() throws(DBusError) -> DBusClient {
            if let client { return client }
            let opened = try DBusClient.open(address: address)
            client = opened
            return opened
        }
    }

    private typealias Job = @Sendable (Connection) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }

    private let queue = Locked(Queue())

    /// Starts the thread; it runs until ``shutdown(_:)`` or ``shutdownSoon(_:)``.
    /// The connection opens with the first job.
    ///
    /// - Parameters:
    ///   - address: The bus address, or `nil` for the system bus.
    ///   - name: The thread's name (at most 15 bytes).
    package init(address: String?, name: String) {
        // The thread keeps the object alive until its loop ends.
        if !DedicatedThread.detach(name: name, { [self] in loop(Connection(address: address)) }) {
            queue.withLock { $0.stopping = true }
        }
    }

    /// Runs `body` on the thread with the connection, opening it first when
    /// no job has yet.
    ///
    /// - Returns: What `body` returned or threw, or the failure to connect;
    ///   `nil` when the thread has stopped (or never started).
    package func run<T: Sendable>(_ body: @escaping @Sendable (DBusClient) throws(DBusError) -> T) async -> Result<T, DBusError>? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, DBusError>?, Never>) in
            let accepted = enqueue(last: false) { connection in
                continuation.resume(returning: Result { () throws(DBusError) -> T in try body(try connection.open()) })
            }
            if !accepted { continuation.resume(returning: nil) }
        }
    }

    /// Runs `last` as the thread's final job (only when the connection was
    /// opened), closes the connection and ends the thread; waits for that.
    /// Does nothing when already shut down.
    package func shutdown(_ last: @escaping @Sendable (DBusClient) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let accepted = enqueue(last: true) { connection in
                if let client = connection.client { last(client) }
                continuation.resume()
            }
            if !accepted { continuation.resume() }
        }
    }

    /// As ``shutdown(_:)`` without waiting, for deinit safety nets.
    package func shutdownSoon(_ last: @escaping @Sendable (DBusClient) -> Void) {
        enqueue(last: true) { connection in
            if let client = connection.client { last(client) }
        }
    }

    @discardableResult
    private func enqueue(last: Bool, _ job: @escaping Job) -> Bool {
        queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            if last { queue.stopping = true }
            return true
        }
    }

    private func loop(_ connection: Connection) {
        while let job = queue.withLock(when: { !$0.jobs.isEmpty || $0.stopping }, { $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) {
            job(connection)
        }
        connection.client?.close()
        connection.client = nil
    }
}
#endif
