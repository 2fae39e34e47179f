#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A clock that moves only when the test says so, including backwards.
public final class ManualClock: AuthenticationClock {
    private let current: Locked<Date>

    /// Creates a clock.
    ///
    /// - Parameter start: The starting time.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock.
    ///
    /// - Parameter seconds: How far; negative sets the clock back.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
