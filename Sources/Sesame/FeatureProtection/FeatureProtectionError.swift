/// Why a feature-protection call failed.
public enum FeatureProtectionError: Error, Sendable, CustomStringConvertible {
    /// Biometrics cannot be used now, and the call needs it (SPEC B3, B4), or
    /// a biometrics-only feature lost its sensor (SPEC B5): fails closed.
    case unavailable(AuthenticationError)
    /// The owner did not authenticate.
    case authenticationFailed(AuthenticationError)
    /// The enrolment changed and the app's own verification did not succeed
    /// or is not configured (SPEC C2).
    case enrolmentChanged
    /// The stored record was edited or damaged. Every feature counts as
    /// protected until ``FeatureProtection/reset(reason:)`` succeeds.
    case recordTampered
    /// The record could not be read or written.
    case storage(String)

    public var description: String {
        switch self {
        case .unavailable(let error): "Biometric protection is not available: \(error.message)"
        case .authenticationFailed(let error): error.message
        case .enrolmentChanged:
            "The enrolled fingerprints or faces changed since protection was switched on; the app's own verification is required"
        case .recordTampered:
            "The feature-protection record was changed outside Sesame or is damaged; every feature stays protected until it is reset"
        case .storage(let message): "The feature-protection record cannot be used: \(message)"
        }
    }
}
