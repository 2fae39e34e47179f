#if os(Linux)
import Sesame

/// The signals that match rules deliver, as an async sequence, from a
/// connection on a thread of its own: for watchers that only listen (a
/// sensor's change notices). The connection closes when the consumer stops
/// iterating; the sequence ends at once when the bus cannot be reached.
package enum DBusSignalStream {
    /// How long one wait lasts before the consumer's stop is looked at.
    private static let pollMicroseconds: UInt64 = 200_000

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - address: The bus address, or `nil` for the system bus.
    ///   - rules: The match rules.
    ///   - name: The thread's name (at most 15 bytes).
    ///   - listening: Called once the rules are in place: a signal sent
    ///     after it is delivered.
    /// - Returns: The signals.
    package static func signals(
        address: String?, rules: [String], name: String, listening: @escaping @Sendable () -> Void = {}
    ) -> AsyncStream<DBusSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: DBusSignal.self, bufferingPolicy: .bufferingNewest(64))
        let stopped = Locked(false)
        continuation.onTermination = { _ in stopped.withLock { $0 = true } }
        let started = DedicatedThread.detach(name: name) {
            defer { continuation.finish() }
            do throws(DBusError) {
                let client = try DBusClient.open(address: address)
                defer { client.close() }
                for rule in rules { try client.addMatch(rule) }
                listening()
                while !stopped.withLock({ $0 }) {
                    if let signal = try client.nextSignal(timeoutMicroseconds: pollMicroseconds) { continuation.yield(signal) }
                }
            } catch {
                // The bus is gone or was never there: the notices end.
            }
        }
        if !started { continuation.finish() }
        return stream
    }
}
#endif
