/// What a ``PasscodeGuard`` says about a passcode-derived value.
public enum PasscodeGuardAnswer: Sendable {
    /// The slot is not bound to this guard: scrypt alone decides.
    case notBound
    /// The value is right: the slot's secret.
    case released(SecretBytes)
    /// The value is wrong (and the hardware counted it).
    case refused
}
