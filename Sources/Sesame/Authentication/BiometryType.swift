/// The kind of biometric the device offers (SPEC A7). Known after
/// ``AuthenticationContext/canEvaluate(_:)`` or an evaluation.
public enum BiometryType: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// No biometric sensor, or not yet asked.
    case none
    /// A fingerprint sensor (Touch ID; fprintd on Linux).
    case fingerprint
    /// A face sensor (Face ID).
    case face

    public var description: String { rawValue }
}
