/// Why a sensor could not be claimed or complete a scan.
public enum BiometricSensorError: Error, Sendable, Hashable {
    /// The sensor cannot be used; the reason says why (busy, gone, denied…).
    case unavailable(UnavailableReason)
    /// No biometric is enrolled for this user.
    case notEnrolled
    /// The sensor keeps its own lockout and is locked out.
    case lockedOut
    /// The calling task was cancelled and the scan was stopped.
    case cancelled
    /// The platform took the prompt away (Apple's system UI, a lost session).
    case systemCancel
    /// The platform's own prompt was cancelled by the user.
    case userCancel
    /// The platform's own prompt's fallback button was pressed.
    case userFallback
}
