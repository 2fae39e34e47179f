/// How the app lock unlocks, chosen afresh on every launch and resume (SPEC E2).
public enum AppLockMethod: Sendable, Hashable {
    /// Biometrics, then the device passcode; fallback labelled "Enter Device Passcode".
    case deviceOwner
    /// Biometrics, with "Enter App Passcode" opening the app's pad.
    case biometricsWithAppPasscode
    /// The app passcode pad only.
    case appPasscode
    /// Nothing can unlock (no device passcode, no biometrics, no app passcode):
    /// the lock stays closed until the app's recovery path sets things up again.
    case none

    /// The fallback title shown on the device-owner prompt.
    public static let deviceOwnerFallbackTitle = "Enter Device Passcode"
    /// The fallback title shown on the biometric prompt when the app passcode backs it.
    public static let appPasscodeFallbackTitle = "Enter App Passcode"

    /// SPEC E2's choice.
    ///
    /// - Parameters:
    ///   - deviceOwnerAvailable: The device passcode is set (so device-owner
    ///     authentication does not rest on biometrics alone).
    ///   - biometricsAvailable: Biometrics can be evaluated.
    ///   - appPasscodeSet: The app passcode is set.
    /// - Returns: The method.
    public static func choose(deviceOwnerAvailable: Bool, biometricsAvailable: Bool, appPasscodeSet: Bool) -> AppLockMethod {
        if deviceOwnerAvailable { return .deviceOwner }
        // Biometrics even without an app passcode: the pad it falls back to then
        // offers only the app's recovery path, which is still better than no way in.
        if biometricsAvailable { return .biometricsWithAppPasscode }
        return appPasscodeSet ? .appPasscode : .none
    }
}
