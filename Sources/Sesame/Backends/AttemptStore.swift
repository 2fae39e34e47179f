#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sesame's authentication history: failure counts, lockout, and the last
/// biometric success for the reuse window.
///
/// Lockout spans contexts and prompts (SPEC A4), so it lives here, shared by
/// every ``AuthenticationContext`` made from the same ``Authenticators``.
public struct AttemptRecord: Sendable, Hashable, Codable {
    /// Non-matching scans since the last match or passcode success.
    public var consecutiveBiometricFailures: Int
    /// Whether biometrics is locked out until the device passcode succeeds.
    public var biometricLockout: Bool
    /// When biometrics last succeeded.
    public var lastBiometricSuccess: Date?
    /// The enrolment at that success; reuse needs the same enrolment.
    public var lastBiometricSuccessDomainState: DomainState?

    /// An empty history.
    public init() {
        consecutiveBiometricFailures = 0
        biometricLockout = false
        lastBiometricSuccess = nil
        lastBiometricSuccessDomainState = nil
    }
}

/// Where the ``AttemptRecord`` is kept: in memory, in the vault, or in the
/// kernel keyring.
public protocol AttemptStore: Sendable {
    /// Reads the record.
    ///
    /// - Returns: The current record.
    /// - Throws: When the record cannot be read; Sesame then fails closed.
    func read() async throws -> AttemptRecord

    /// Changes the record atomically.
    ///
    /// - Parameter change: Edits the record in place.
    /// - Returns: The record after the change.
    /// - Throws: When the record cannot be written; Sesame then fails closed.
    @discardableResult
    func update(_ change: @Sendable (inout AttemptRecord) -> Void) async throws -> AttemptRecord
}

/// An ``AttemptStore`` for one process: history ends when the process does.
public final class InMemoryAttemptStore: AttemptStore {
    private let record: Locked<AttemptRecord>

    /// Creates a store.
    ///
    /// - Parameter record: The starting history.
    public init(_ record: AttemptRecord = AttemptRecord()) {
        self.record = Locked(record)
    }

    public func read() async throws -> AttemptRecord {
        record.withLock { $0 }
    }

    @discardableResult
    public func update(_ change: @Sendable (inout AttemptRecord) -> Void) async throws -> AttemptRecord {
        record.withLock { value in
            change(&value)
            return value
        }
    }
}
