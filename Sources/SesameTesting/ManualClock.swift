#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A clock that moves only when the test says so: a wall clock (which can
/// be set back or forward on its own, as a person or a lying process does)
/// and a boot clock (which only runs forward, and restarts at a reboot).
public final class ManualClock: AuthenticationClock {
    private struct State {
        var wall: Date
        var boot: BootInstant
    }

    private let current: Locked<State>

    /// Creates a clock.
    ///
    /// - Parameter start: The starting wall-clock time.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(State(wall: start, boot: BootInstant(bootID: UUID().uuidString.lowercased(), uptime: 1000)))
    }

    public func now() -> Date { current.withLock { $0.wall } }

    public func bootInstant() -> BootInstant? { current.withLock { $0.boot } }

    /// Lets time pass, or sets the wall clock back.
    ///
    /// - Parameter seconds: How far; positive moves both clocks (time
    ///   passes), negative sets only the wall clock back.
    public func advance(by seconds: TimeInterval) {
        current.withLock { state in
            state.wall = state.wall.addingTimeInterval(seconds)
            if seconds > 0 { state.boot.uptime += seconds }
        }
    }

    /// Sets the wall clock alone, as a person or a lying process does; the
    /// boot clock does not move.
    ///
    /// - Parameter seconds: How far; negative sets it back.
    public func setWallClock(by seconds: TimeInterval) {
        current.withLock { $0.wall = $0.wall.addingTimeInterval(seconds) }
    }

    /// Reboots: a new boot id, the boot clock starts again.
    ///
    /// - Parameters:
    ///   - downtime: How long the machine was off, added to the wall clock.
    ///   - uptime: Seconds since the new boot.
    public func reboot(downtime: TimeInterval = 0, uptime: TimeInterval = 0) {
        current.withLock { state in
            state.wall = state.wall.addingTimeInterval(downtime + uptime)
            state.boot = BootInstant(bootID: UUID().uuidString.lowercased(), uptime: uptime)
        }
    }
}
