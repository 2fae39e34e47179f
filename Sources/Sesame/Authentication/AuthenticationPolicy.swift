/// What an evaluation must prove (SPEC A1).
public enum AuthenticationPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Biometrics only. After the first failed match the prompt may offer a
    /// fallback button; pressing it ends the evaluation with `userFallback`,
    /// and the application runs its own alternative. The device passcode is
    /// never asked for under this policy.
    case biometrics

    /// Biometrics first; the device passcode after repeated failures, or at
    /// once when biometrics is locked out, unavailable or not enrolled. Fails
    /// only when both fail or the user cancels.
    case deviceOwner

    /// The application's own passcode only.
    case appPasscode
}
