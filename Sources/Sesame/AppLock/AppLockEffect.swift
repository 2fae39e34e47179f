/// What the app lock asks its driver to do after a transition.
public enum AppLockEffect: Sendable, Hashable {
    /// Cover the app's content.
    case showCover
    /// Reveal the app's content.
    case hideCover
    /// Find out what can unlock now, then send ``AppLockEvent/methodChosen(_:)``.
    case chooseMethod
    /// Run an authentication with this policy and fallback title.
    case evaluate(AuthenticationPolicy, fallbackTitle: String)
    /// Show the app passcode pad.
    case showPasscodePad
    /// Stop the check that is running.
    case cancelAuthentication
}
