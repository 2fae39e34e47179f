#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an evaluation failed (SPEC A3). Every evaluation ends in success or in
/// exactly one of these codes.
///
/// Each error has a stable numeric `Code.rawValue` (the same
/// numbers as Apple's `LAError.Code`), a stable string ``identifier``, and a
/// ``message`` for people.
public struct AuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable error codes. Raw values match `LAError.Code`.
    public enum Code: Int, Sendable, Hashable, Codable, CaseIterable {
        /// The credentials did not match (no match, wrong passcode).
        case authenticationFailed = -1
        /// The user pressed Cancel.
        case userCancel = -2
        /// The user pressed the fallback button under the `biometrics` policy.
        case userFallback = -3
        /// The system took the prompt away.
        case systemCancel = -4
        /// No passcode is set for the policy that needs one.
        case passcodeNotSet = -5
        /// No sensor, no daemon, or the sensor is unusable.
        case biometryNotAvailable = -6
        /// The sensor works but no biometric is enrolled.
        case biometryNotEnrolled = -7
        /// Too many failed matches; the device passcode must succeed first.
        case biometryLockout = -8
        /// The app called ``AuthenticationContext/invalidate()``.
        case appCancel = -9
        /// The context was invalidated before this call.
        case invalidContext = -10
        /// A prompt was needed but interaction is not allowed.
        case notInteractive = -1004
    }

    /// The stable code.
    public let code: Code
    /// Why an authenticator is unavailable, when that is the cause.
    public let reason: UnavailableReason?
    /// When a delay or lockout ends, if Sesame knows.
    public let retryAfter: Date?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The stable code.
    ///   - reason: Why an authenticator is unavailable, if that is the cause.
    ///   - retryAfter: When trying again may succeed, if known.
    public init(_ code: Code, reason: UnavailableReason? = nil, retryAfter: Date? = nil) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// The code as a stable string, e.g. `"biometryLockout"`.
    public var identifier: String { code.identifier }

    /// A sentence for people, including the reason when there is one.
    public var message: String {
        guard let reason else { return code.message }
        return "\(code.message): \(reason.detail)"
    }

    public var description: String { "\(identifier) (\(code.rawValue)): \(message)" }

    /// Errors compare by code only, so `catch` clauses and tests can match
    /// `AuthenticationError.userCancel` without restating the reason.
    public static func == (lhs: AuthenticationError, rhs: AuthenticationError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Lets `catch AuthenticationError.userCancel` match by code.
    public static func ~= (pattern: AuthenticationError, value: any Error) -> Bool {
        (value as? AuthenticationError)?.code == pattern.code
    }
}

extension AuthenticationError {
    public static let authenticationFailed = AuthenticationError(.authenticationFailed)
    public static let userCancel = AuthenticationError(.userCancel)
    public static let userFallback = AuthenticationError(.userFallback)
    public static let systemCancel = AuthenticationError(.systemCancel)
    public static let passcodeNotSet = AuthenticationError(.passcodeNotSet)
    public static let biometryNotAvailable = AuthenticationError(.biometryNotAvailable)
    public static let biometryNotEnrolled = AuthenticationError(.biometryNotEnrolled)
    public static let biometryLockout = AuthenticationError(.biometryLockout)
    public static let appCancel = AuthenticationError(.appCancel)
    public static let invalidContext = AuthenticationError(.invalidContext)
    public static let notInteractive = AuthenticationError(.notInteractive)

    /// Biometrics is unavailable for `reason`.
    ///
    /// - Parameter reason: Why, e.g. "fprintd is not running".
    /// - Returns: A `biometryNotAvailable` error carrying the reason.
    public static func biometryNotAvailable(_ reason: UnavailableReason) -> AuthenticationError {
        AuthenticationError(.biometryNotAvailable, reason: reason)
    }
}

extension AuthenticationError.Code {
    /// The case name, stable across releases.
    public var identifier: String {
        switch self {
        case .authenticationFailed: "authenticationFailed"
        case .userCancel: "userCancel"
        case .userFallback: "userFallback"
        case .systemCancel: "systemCancel"
        case .passcodeNotSet: "passcodeNotSet"
        case .biometryNotAvailable: "biometryNotAvailable"
        case .biometryNotEnrolled: "biometryNotEnrolled"
        case .biometryLockout: "biometryLockout"
        case .appCancel: "appCancel"
        case .invalidContext: "invalidContext"
        case .notInteractive: "notInteractive"
        }
    }

    /// A sentence for people.
    public var message: String {
        switch self {
        case .authenticationFailed: "Authentication failed: the credentials did not match"
        case .userCancel: "Authentication was cancelled by the user"
        case .userFallback: "The user chose the fallback instead of biometrics"
        case .systemCancel: "Authentication was cancelled by the system"
        case .passcodeNotSet: "The login password (the device passcode) cannot be checked"
        case .biometryNotAvailable: "Biometrics is not available"
        case .biometryNotEnrolled: "No biometric is enrolled"
        case .biometryLockout: "Biometrics is locked out after too many failed attempts; the device passcode is required"
        case .appCancel: "Authentication was cancelled by the application"
        case .invalidContext: "The authentication context was invalidated"
        case .notInteractive: "Authentication needs a prompt, but interaction is not allowed"
        }
    }
}
