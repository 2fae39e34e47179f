#if os(Linux)
import Sesame

/// Starts the thread that reads a transport's reports: one per uhid device
/// and one per socket connection, never on Swift's cooperative pool.
enum ReportReader {
    /// Runs `loop` on a new thread called `name`, handing it the input of
    /// the stream returned; at most 1024 reports wait unread (a host that
    /// writes faster than they are read loses the newest).
    ///
    /// - Returns: The reports, or `nil` when no thread could be made
    ///   (`loop` never runs).
    static func start(
        name: String, _ loop: @escaping @Sendable (AsyncStream<[UInt8]>.Continuation) -> Void
    ) -> AsyncStream<[UInt8]>? {
        let (reports, input) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(1024))
        guard DedicatedThread.detach(name: name, { loop(input) }) else {
            input.finish()
            return nil
        }
        return reports
    }
}
#endif
