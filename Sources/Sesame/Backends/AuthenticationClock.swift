#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
}

/// The system's wall clock.
public struct SystemClock: AuthenticationClock {
    /// Creates the system clock.
    public init() {}

    public func now() -> Date { Date() }
}
