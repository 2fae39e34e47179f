import Sesame

/// A `PromptPresenter` for tests: it records every call and answers
/// from a script, so a test can play the user.
///
/// ```swift
/// let presenter = RecordingPresenter()
/// presenter.answerSecrets(.enter("1234"))
/// // … evaluate …
/// #expect(presenter.messages.contains(.hint(.fingerNotCentered)))
/// ```
public final class RecordingPresenter: PromptPresenter {
    /// One call Sesame made.
    public enum Event: Sendable, Equatable {
        case began(AuthenticationPrompt)
        case showed(PromptMessage)
        case askedForSecret(SecretRequest)
        case ended(AuthenticationError?)
    }

    /// How the scripted user answers a secret request.
    public enum Answer: Sendable {
        /// Types this secret.
        case enter(String)
        /// Presses Cancel.
        case cancel
        /// Does nothing until the evaluation is cancelled.
        case waitForCancellation
    }

    private struct State {
        var events: [Event] = []
        var answers: [Answer] = []
    }

    private let state = Locked(State())
    private let actions = Mailbox<PromptAction>()
    private let idle = Mailbox<Never>()
    private let hasButtons: Bool

    /// Creates a presenter.
    ///
    /// - Parameter hasButtons: `false` for a presenter with no Cancel or
    ///   fallback button (``userAction()`` returns `nil`).
    public init(hasButtons: Bool = true) {
        self.hasButtons = hasButtons
    }

    // MARK: Script

    /// Queues answers for the next secret requests; with none queued, a
    /// request is answered with Cancel.
    ///
    /// - Parameter answers: In order.
    public func answerSecrets(_ answers: Answer...) {
        state.withLock { $0.answers.append(contentsOf: answers) }
    }

    /// Presses a button: delivered to the scan waiting now, or the next one.
    ///
    /// - Parameter action: Cancel or fallback.
    public func press(_ action: PromptAction) {
        actions.post(action)
    }

    // MARK: Observations

    /// Every call, in order.
    public var events: [Event] { state.withLock { $0.events } }

    /// The prompts begun.
    public var prompts: [AuthenticationPrompt] {
        events.compactMap { if case .began(let prompt) = $0 { prompt } else { nil } }
    }

    /// The messages shown.
    public var messages: [PromptMessage] {
        events.compactMap { if case .showed(let message) = $0 { message } else { nil } }
    }

    /// The secret requests made.
    public var secretRequests: [SecretRequest] {
        events.compactMap { if case .askedForSecret(let request) = $0 { request } else { nil } }
    }

    /// The outcomes the prompts ended with (`nil` for success).
    public var endings: [AuthenticationError?] {
        events.compactMap { if case .ended(let outcome) = $0 { .some(outcome) } else { nil } }
    }

    // MARK: PromptPresenter

    public func begin(_ prompt: AuthenticationPrompt) async {
        record(.began(prompt))
    }

    public func show(_ message: PromptMessage) async {
        record(.showed(message))
    }

    public func userAction() async -> PromptAction? {
        guard hasButtons else { return nil }
        return await actions.take()
    }

    public func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        record(.askedForSecret(request))
        let answer = state.withLock { $0.answers.isEmpty ? Answer.cancel : $0.answers.removeFirst() }
        switch answer {
        case .enter(let secret):
            return .entered(SecretBytes(utf8: secret))
        case .cancel:
            return .cancelled
        case .waitForCancellation:
            _ = await idle.take()
            return .cancelled
        }
    }

    public func end(_ outcome: AuthenticationError?) async {
        record(.ended(outcome))
    }

    private func record(_ event: Event) {
        state.withLock { $0.events.append(event) }
    }
}
