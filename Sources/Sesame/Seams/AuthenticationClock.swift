#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CSesameBootClock

/// Wall-clock time for Sesame's rules: the reuse window (SPEC A6) and
/// persisted delays (SPEC E3). Injectable so tests control time.
///
/// Named `AuthenticationClock`, not `Clock`, so that importing Sesame does not
/// shadow the standard library's `Clock` protocol in your files.
public protocol AuthenticationClock: Sendable {
    /// The current time.
    ///
    /// - Returns: Now, as a wall-clock date.
    func now() -> Date

    /// The kernel's boot clock, which measures attempt delays (SPEC E3): a
    /// wall clock a process sets or fakes neither shortens nor ends them.
    ///
    /// - Returns: The reading, or `nil` where the platform has none (delays
    ///   then fall back to the wall clock, never shortened by setting it back).
    func bootInstant() -> BootInstant?
}

extension AuthenticationClock {
    /// No boot clock: delays are measured on the wall clock.
    ///
    /// - Returns: `nil`.
    public func bootInstant() -> BootInstant? { nil }
}

/// The system's wall clock, and the kernel's boot clock read by raw system
/// calls.
public struct SystemClock: AuthenticationClock {
    /// Creates the system clock.
    public init() {}

    public func now() -> Date { Date() }

    public func bootInstant() -> BootInstant? {
        var buffer = [CChar](repeating: 0, count: 37)
        var uptime: Double = 0
        guard csesame_boot_clock(&buffer, &uptime) == 0, uptime.isFinite, uptime >= 0 else { return nil }
        let bootID = String(decoding: buffer.prefix(36).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return BootInstant(bootID: bootID, uptime: uptime)
    }
}
