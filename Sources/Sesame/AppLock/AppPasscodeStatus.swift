#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a passcode pad shows before asking: attempts left and any delay.
/// Reading it never counts as an attempt.
public struct AppPasscodeStatus: Sendable, Hashable {
    /// Wrong entries in a row so far (a repeated identical entry counts once).
    public var consecutiveFailures: Int
    /// When the running delay ends, if one runs.
    public var delayedUntil: Date?
    /// The number of further wrong entries of which the last starts a delay;
    /// 1 once every wrong entry is followed by a delay; `nil` when the
    /// schedule has no delays.
    public var attemptsBeforeDelay: Int?
    /// Whether the tenth wrong entry in a row erases the protected data.
    public var erasesAfterTenFailures: Bool
    /// Wrong entries left before the erase, when it is on.
    public var attemptsBeforeErase: Int?
    /// The cost the stored hash was made with.
    public var cost: AppPasscodeCost

    /// Creates a status.
    ///
    /// - Parameters:
    ///   - consecutiveFailures: Wrong entries in a row.
    ///   - delayedUntil: The end of the running delay.
    ///   - attemptsBeforeDelay: Entries until the next delay.
    ///   - erasesAfterTenFailures: Whether the erase is on.
    ///   - attemptsBeforeErase: Entries left before the erase.
    ///   - cost: The stored hash's cost.
    public init(
        consecutiveFailures: Int,
        delayedUntil: Date?,
        attemptsBeforeDelay: Int?,
        erasesAfterTenFailures: Bool,
        attemptsBeforeErase: Int?,
        cost: AppPasscodeCost
    ) {
        self.consecutiveFailures = consecutiveFailures
        self.delayedUntil = delayedUntil
        self.attemptsBeforeDelay = attemptsBeforeDelay
        self.erasesAfterTenFailures = erasesAfterTenFailures
        self.attemptsBeforeErase = attemptsBeforeErase
        self.cost = cost
    }
}
