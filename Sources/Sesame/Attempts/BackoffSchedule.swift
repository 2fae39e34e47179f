#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How long to wait after repeated wrong passcodes (SPEC E3).
///
/// The default is iOS's: free attempts up to the fourth failure, then 1 min
/// after the 5th, 5 min after the 6th, 15 min after the 7th and 8th, and 1 h
/// from the 9th on. Sesame applies it to the device passcode too, in place of
/// PAM's fixed two-second delay.
public struct BackoffSchedule: Sendable, Hashable, Codable {
    /// Delays in seconds, indexed by failure count minus one; the last entry
    /// repeats for every later failure.
    public let delays: [TimeInterval]

    /// Creates a schedule.
    ///
    /// - Parameter delays: The delay after the 1st, 2nd, … failure, in
    ///   seconds; the last one applies to every failure after it. Negative
    ///   values count as zero.
    public init(delays: [TimeInterval]) {
        self.delays = delays.map { max(0, $0) }
    }

    /// iOS's schedule (SPEC E3).
    public static let standard = BackoffSchedule(delays: [0, 0, 0, 0, 60, 300, 900, 900, 3600])

    /// The delay after `failures` consecutive wrong entries.
    ///
    /// - Parameter failures: Consecutive failures so far.
    /// - Returns: Seconds to wait before the next attempt; 0 for none.
    public func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures > 0, let last = delays.last else { return 0 }
        return failures <= delays.count ? delays[failures - 1] : last
    }
}
