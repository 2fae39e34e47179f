/// Shows the authentication prompt: a terminal, a window, or a test's recorder.
///
/// Sesame calls ``begin(_:)`` once per evaluation, then any number of
/// ``show(_:)`` and ``requestSecret(_:)`` calls, and ``end(_:)`` exactly once.
/// While a scan runs, Sesame also awaits ``userAction()`` so that Cancel and
/// the fallback button work during the scan.
public protocol PromptPresenter: Sendable {
    /// The prompt appears: app name, reason, titles, and what it asks for.
    ///
    /// - Parameter prompt: What to show.
    func begin(_ prompt: AuthenticationPrompt) async

    /// A message for the user: a retry hint, "not recognised", an offered
    /// fallback, PAM's info and error messages.
    ///
    /// - Parameter message: What to show.
    func show(_ message: PromptMessage) async

    /// Waits until the user presses Cancel or the fallback button.
    ///
    /// Sesame cancels the waiting task when the scan ends first, so an
    /// implementation must return promptly on cancellation.
    ///
    /// - Returns: The action, or `nil` when the presenter offers no buttons
    ///   (or the wait was cancelled).
    func userAction() async -> PromptAction?

    /// Asks for a secret, masked unless the request allows echo.
    ///
    /// - Parameter request: What to ask for.
    /// - Returns: The secret, or that the user cancelled.
    func requestSecret(_ request: SecretRequest) async -> SecretEntry

    /// The prompt goes away.
    ///
    /// - Parameter outcome: `nil` on success, otherwise the error the
    ///   evaluation ends with.
    func end(_ outcome: AuthenticationError?) async
}

/// A button the user pressed on the prompt.
public enum PromptAction: String, Sendable, Hashable {
    /// The cancel button (``AuthenticationContext/cancelTitle``).
    case cancel
    /// The fallback button (``AuthenticationContext/fallbackTitle``).
    case fallback
}

/// The user's answer to a secret request.
public enum SecretEntry: Sendable {
    /// The user entered a secret.
    case entered(SecretBytes)
    /// The user cancelled.
    case cancelled
    /// Nobody was asked: the prompt could not be shown (its program could
    /// not start, or has no terminal or display to show it on). Not a
    /// Cancel: the evaluation fails with `notInteractive` saying why.
    case notShown(String)
}

/// A request for a secret.
public struct SecretRequest: Sendable, Hashable {
    /// Which secret is asked for.
    public var kind: AuthenticationMethod
    /// The question, e.g. "Password: ".
    public var prompt: String
    /// Whether the answer may be echoed (never for passcodes).
    public var echo: Bool
    /// The secret in the glossary's words, as a dialog names it: "your
    /// login password", "your vault passcode". The question alone may not
    /// say (PAM asks "Password: " for the login password), and `kind` is
    /// too coarse (the vault passcode and the recovery key are both
    /// passcodes of the app).
    public var secretName: String

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - kind: Which secret is asked for.
    ///   - prompt: The question.
    ///   - echo: Whether the answer may be echoed.
    ///   - secretName: The secret in the glossary's words; `nil` names the
    ///     kind's (``AuthenticationMethod/secretName``).
    public init(kind: AuthenticationMethod, prompt: String, echo: Bool = false, secretName: String? = nil) {
        self.kind = kind
        self.prompt = prompt
        self.echo = echo
        self.secretName = secretName ?? kind.secretName
    }
}
