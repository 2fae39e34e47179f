/// Checks the application's own passcode (SPEC E3). Sesame's `AppPasscode`
/// implements it; the ``AuthenticationContext`` uses it for the
/// ``AuthenticationPolicy/appPasscode`` policy.
public protocol AppPasscodeVerifier: Sendable {
    /// Whether an app passcode is set. Never prompts.
    ///
    /// - Returns: ``PasscodeState/set`` or why not.
    func currentState() async -> PasscodeState

    /// Checks an entered passcode, counting failures and applying delays.
    ///
    /// - Parameter passcode: What the user entered.
    /// - Returns: The outcome; ``PasscodeVerification/delayed(until:)`` while a
    ///   back-off delay runs (the passcode is not checked then).
    func verify(_ passcode: SecretBytes) async -> PasscodeVerification
}
