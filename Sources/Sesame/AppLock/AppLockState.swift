#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the app lock is (SPEC E1). Every state but ``unlocked`` keeps the
/// app's content covered.
public enum AppLockState: Sendable, Hashable {
    /// Covered, and nothing running: acting on the cover retries.
    case locked
    /// Covered while Sesame picks the method (SPEC E2).
    case choosingMethod
    /// Covered while a biometric (or device-owner) prompt runs.
    case waitingForBiometrics
    /// Covered, with the app passcode pad showing.
    case waitingForPasscode
    /// Covered while a back-off delay runs; acting on the cover retries.
    case delayed(until: Date)
    /// The content shows.
    case unlocked
}
