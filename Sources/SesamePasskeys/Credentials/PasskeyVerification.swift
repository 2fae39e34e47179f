import Sesame

/// How new passkeys verify the owner (SPEC P1): by a finger, or by the
/// login password through PAM.
public enum PasskeyVerification: String, Sendable, Hashable, CaseIterable {
    /// A finger enrolled on the reader (`biometryAny`).
    case finger
    /// The login password (`devicePasscode`).
    case password

    /// The access control it gives a new passkey.
    public var accessControl: AccessControl {
        switch self {
        case .finger: .biometryAny
        case .password: .devicePasscode
        }
    }

    /// SPEC P1's default: the finger where the reader has an enrolled one,
    /// else the login password. Never prompts (it asks the sensor only
    /// whether a finger could be read).
    ///
    /// - Parameter authenticators: The machine's authenticators.
    /// - Returns: The verification, and why the finger could not be used
    ///   when it could not (for the owner to read).
    public static func preferred(on authenticators: Authenticators) async -> (verification: PasskeyVerification, fingerUnavailable: String?) {
        do {
            try await AuthenticationContext(authenticators).canEvaluate(.biometrics)
            return (.finger, nil)
        } catch {
            return (.password, "\(error)")
        }
    }
}
