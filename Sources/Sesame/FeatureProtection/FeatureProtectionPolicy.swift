/// How a protected feature is unlocked, chosen when protection is switched on.
///
/// Payment-grade features often must not accept the device passcode (anyone
/// who watched it typed could pass); ``biometrics`` gives exactly that.
public enum FeatureProtectionPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// A biometric match only. When biometrics becomes unavailable the
    /// feature fails closed.
    case biometrics
    /// A biometric match, or the device passcode (SPEC A1 `deviceOwner`).
    case biometricsOrDevicePasscode
    /// A biometric match, or the app's own passcode.
    case biometricsOrAppPasscode
}
