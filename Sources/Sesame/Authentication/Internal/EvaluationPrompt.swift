/// The prompt of one evaluation: begun at most once, on first need, and ended
/// exactly once if begun. Without a presenter, every call is a no-op and
/// secret requests report that no one can answer.
final class EvaluationPrompt: Sendable {
    private let presenter: (any PromptPresenter)?
    private let appName: String
    private let settings: Evaluation.Settings
    private let begun = Locked(false)

    init(presenter: (any PromptPresenter)?, appName: String, settings: Evaluation.Settings) {
        self.presenter = presenter
        self.appName = appName
        self.settings = settings
    }

    var canAskForSecrets: Bool { presenter != nil }

    func begin(_ method: AuthenticationMethod) async {
        guard let presenter else { return }
        let first = begun.withLock { begun in
            defer { begun = true }
            return !begun
        }
        guard first else { return }
        await presenter.begin(AuthenticationPrompt(
            appName: appName,
            reason: settings.reason,
            cancelTitle: settings.cancelTitle,
            fallbackTitle: settings.fallbackTitle.isEmpty ? nil : settings.fallbackTitle,
            method: method
        ))
    }

    func show(_ message: PromptMessage) async {
        await presenter?.show(message)
    }

    func userAction() async -> PromptAction? {
        await presenter?.userAction()
    }

    func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        guard let presenter else { return .cancelled }
        await begin(request.kind)
        return await presenter.requestSecret(request)
    }

    func end(_ outcome: AuthenticationError?) async {
        guard let presenter else { return }
        let wasBegun = begun.withLock { begun in
            defer { begun = false }
            return begun
        }
        if wasBegun { await presenter.end(outcome) }
    }
}

/// Bridges a verifier's conversation (PAM's) to the prompt.
struct PromptConversation: PasscodeConversation {
    let prompt: EvaluationPrompt
    let kind: AuthenticationMethod

    func requestSecret(prompt text: String, echo: Bool) async -> SecretEntry {
        await prompt.requestSecret(SecretRequest(kind: kind, prompt: text, echo: echo))
    }

    func show(_ message: PromptMessage) async {
        await prompt.show(message)
    }
}
