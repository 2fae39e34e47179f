#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A biometric success kept by a ``ReuseWindowStore``.
public struct ReuseWindowEntry: Sendable, Hashable {
    /// Seconds since the success, on the store's clock. Negative when that
    /// clock went back; Sesame never reuses such an entry.
    public var elapsed: TimeInterval
    /// The enrolment at the success.
    public var domainState: DomainState?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - elapsed: Seconds since the success.
    ///   - domainState: The enrolment at the success.
    public init(elapsed: TimeInterval, domainState: DomainState?) {
        self.elapsed = elapsed
        self.domainState = domainState
    }
}
