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
    /// Wrong device passcodes since the last right one (SPEC E3).
    public var consecutivePasscodeFailures: Int
    /// The back-off running after the last wrong device passcode, if any.
    public var passcodeDelay: Delay?
    /// Device passcode attempts counted and being checked right now.
    public var passcodeAttemptsInFlight: [AttemptInFlight]

    /// A back-off delay. Kept as a start and a length, not an end, so that a
    /// clock set back restarts the delay instead of shortening it.
    public struct Delay: Sendable, Hashable, Codable {
        /// When the delay began.
        public var start: Date
        /// How long it lasts, in seconds.
        public var duration: TimeInterval
        /// When it began on the boot clock, which measures it; `nil` in
        /// records from before boot clocks (such a delay restarts in full).
        public var startBoot: BootInstant?

        /// Creates a delay.
        ///
        /// - Parameters:
        ///   - start: When it began.
        ///   - duration: Its length in seconds.
        ///   - startBoot: When it began on the boot clock.
        public init(start: Date, duration: TimeInterval, startBoot: BootInstant? = nil) {
            self.start = start
            self.duration = duration
            self.startBoot = startBoot
        }

        // Frozen key names: persisted in attempt records.
        private enum CodingKeys: String, CodingKey {
            case start, duration, startBoot = "start_boot"
        }

        /// Decodes a delay; a record from before boot clocks has none.
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` for a missing or impossible field.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            start = try container.decode(Date.self, forKey: .start)
            duration = try container.decode(TimeInterval.self, forKey: .duration)
            startBoot = try container.decodeIfPresent(BootInstant.self, forKey: .startBoot)
            guard duration.isFinite, duration >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .duration, in: container, debugDescription: "impossible delay")
            }
        }

        /// When the delay ends, if it has not yet ended at `now`.
        ///
        /// - Parameter now: The current time.
        /// - Returns: The end, or `nil` once it has passed.
        public func end(at now: Date) -> Date? {
            let end = start.addingTimeInterval(duration)
            return end > now ? end : nil
        }

        /// Restarts the delay at `now` when the clock was set back before its
        /// start, so moving the clock back can lengthen a delay but never
        /// shorten it.
        ///
        /// - Parameter now: The current time.
        public mutating func rebase(at now: Date) {
            if now < start { start = now }
        }
    }

    /// An empty history.
    public init() {
        consecutiveBiometricFailures = 0
        biometricLockout = false
        lastBiometricSuccess = nil
        lastBiometricSuccessDomainState = nil
        consecutivePasscodeFailures = 0
        passcodeDelay = nil
        passcodeAttemptsInFlight = []
    }
}

extension AttemptRecord {
    private enum CodingKeys: String, CodingKey {
        case consecutiveBiometricFailures, biometricLockout, lastBiometricSuccess, lastBiometricSuccessDomainState
        case consecutivePasscodeFailures, passcodeDelay, passcodeAttemptsInFlight
    }

    /// Decodes a record; fields a newer Sesame added default to "no history"
    /// except the lockout, whose absence is an error so that a damaged
    /// record fails closed instead of unlocking.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        consecutiveBiometricFailures = try container.decode(Int.self, forKey: .consecutiveBiometricFailures)
        biometricLockout = try container.decode(Bool.self, forKey: .biometricLockout)
        lastBiometricSuccess = try container.decodeIfPresent(Date.self, forKey: .lastBiometricSuccess)
        lastBiometricSuccessDomainState = try container.decodeIfPresent(DomainState.self, forKey: .lastBiometricSuccessDomainState)
        consecutivePasscodeFailures = try container.decodeIfPresent(Int.self, forKey: .consecutivePasscodeFailures) ?? 0
        passcodeDelay = try container.decodeIfPresent(Delay.self, forKey: .passcodeDelay)
        passcodeAttemptsInFlight = try container.decodeIfPresent([AttemptInFlight].self, forKey: .passcodeAttemptsInFlight) ?? []
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
