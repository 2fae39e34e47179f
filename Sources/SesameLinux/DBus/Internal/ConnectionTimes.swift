/// When each connection on the bus was known to exist (`CLOCK_BOOTTIME`
/// ns), so that a caller's pid is read as its app only if the process
/// holding that pid started by then (SPEC D13; ``ProcessApp``).
///
/// Bounded: every connection on the bus announces itself, callers or not.
/// A name dropped past the bound, or never announced, is judged by
/// ``connectedAt``, an earlier time than its own, which can only make its
/// app unknown, never another's.
struct ConnectionTimes {
    /// The most names remembered at once.
    static let maximumNames = 4096

    /// Read just before the server's own connection was opened: a name
    /// that connected earlier, and so was never announced to us, existed
    /// then.
    var connectedAt: UInt64 = 0
    private var announced: [String: UInt64] = [:]

    var count: Int { announced.count }

    /// NameOwnerChanged announced `name` (read as the signal was
    /// dispatched: the connection existed by then).
    mutating func announce(_ name: String, at time: UInt64) {
        if announced[name] == nil, announced.count >= Self.maximumNames, let any = announced.keys.first {
            announced[any] = nil
        }
        announced[name] = time
    }

    /// The name left the bus, or its time has served.
    mutating func forget(_ name: String) {
        announced[name] = nil
    }

    /// A time by which `name`'s connection existed.
    func connectedBy(_ name: String) -> UInt64 {
        announced[name] ?? connectedAt
    }
}
