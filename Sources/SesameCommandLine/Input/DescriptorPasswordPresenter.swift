import Sesame

/// Answers the login-password question (PAM's conversation) with the
/// password read from `--password-fd`, so that a script can open a
/// `device-passcode` item without a terminal; everything else goes to the
/// terminal prompt, when there is one.
///
/// The password is offered once. PAM asking again means it was wrong: the
/// second question is answered with "cancelled", so a script's wrong password
/// costs one counted failure rather than the three a person gets, and
/// ``wasRejected`` lets the command report it as an authentication failure.
final class DescriptorPasswordPresenter: PromptPresenter, AppAccessPresenter {
    /// The password read from the descriptor.
    let password: SecretBytes
    private let terminal: (any PromptPresenter)?
    private let offered = Locked(false)
    private let rejected = Locked(false)

    /// - Parameters:
    ///   - password: The password read from the descriptor.
    ///   - terminal: The terminal prompt for everything else (a scan's
    ///     messages), or `nil` without a terminal.
    init(password: SecretBytes, terminal: (any PromptPresenter)?) {
        self.password = password
        self.terminal = terminal
    }

    /// Whether PAM asked again after the descriptor's password was given.
    var wasRejected: Bool { rejected.withLock { $0 } }

    func begin(_ prompt: AuthenticationPrompt) async {
        await terminal?.begin(prompt)
    }

    func show(_ message: PromptMessage) async {
        await terminal?.show(message)
    }

    func userAction() async -> PromptAction? {
        await terminal?.userAction()
    }

    func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        // Only a masked login-password question gets the password: an echoed
        // question (a user name, a one-time code) is not what the script gave.
        guard request.kind == .devicePasscode, !request.echo else {
            if let terminal { return await terminal.requestSecret(request) }
            return .cancelled
        }
        let firstTime = offered.withLock { offered in
            defer { offered = true }
            return !offered
        }
        guard firstTime else {
            rejected.withLock { $0 = true }
            return .cancelled
        }
        return .entered(password)
    }

    func end(_ outcome: AuthenticationError?) async {
        await terminal?.end(outcome)
    }

    /// The terminal asks, when there is one (SPEC D13): a password on a
    /// descriptor answers no question about apps.
    func askAppAccess(_ request: AppAccessRequest) async -> AppAccessAnswer {
        guard let asking = terminal as? any AppAccessPresenter else {
            return .nobodyAsked("no terminal or dialog can ask which app may use the item")
        }
        return await asking.askAppAccess(request)
    }
}
