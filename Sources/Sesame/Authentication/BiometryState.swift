/// Whether biometrics can be used to read a protected item now (SPEC D1).
public enum BiometryState: Sendable, Hashable {
    /// Biometrics can be evaluated.
    case available
    /// Too many failed matches; the device passcode lifts the lockout.
    case lockedOut
    /// Biometrics cannot be used, for the given reason.
    case notAvailable(String)

    /// Asks the authenticators. Never prompts.
    ///
    /// - Parameter context: The context to ask with.
    /// - Returns: The state.
    public static func current(on context: AuthenticationContext) async -> BiometryState {
        do throws(AuthenticationError) {
            try await context.canEvaluate(.biometrics)
            return .available
        } catch {
            return error.code == .biometryLockout ? .lockedOut : .notAvailable(error.message)
        }
    }
}
