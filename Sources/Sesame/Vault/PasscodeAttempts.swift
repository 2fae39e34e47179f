#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The attempt record of a vault's passcode slot, as
/// ``VaultSlots/passcodeAttempts(at:clock:)`` reads it (SPEC E3, E5).
public struct PasscodeAttempts: Sendable, Hashable {
    /// Wrong passcodes in a row; an attempt being checked right now counts.
    public let consecutiveFailures: Int
    /// When the running delay ends; `nil` when none runs.
    public let delayedUntil: Date?

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - consecutiveFailures: Wrong passcodes in a row.
    ///   - delayedUntil: When the running delay ends.
    public init(consecutiveFailures: Int, delayedUntil: Date?) {
        self.consecutiveFailures = consecutiveFailures
        self.delayedUntil = delayedUntil
    }
}
