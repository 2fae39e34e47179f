/// How a passcode verifier talks to the user during a check. Sesame supplies
/// it, bridging to the ``PromptPresenter``.
public protocol PasscodeConversation: Sendable {
    /// Asks the user for a secret.
    ///
    /// - Parameters:
    ///   - prompt: The question, e.g. PAM's "Password: ".
    ///   - echo: Whether the answer may be shown as typed (never for passwords).
    /// - Returns: What the user entered, or that they cancelled.
    func requestSecret(prompt: String, echo: Bool) async -> SecretEntry

    /// Shows an informational or error message (e.g. from PAM).
    ///
    /// - Parameter message: The message.
    func show(_ message: PromptMessage) async
}
