#if os(Linux)
import Sesame

/// Which presenter asks the owner, in one place beside the presenters: a new
/// kind of prompt is a file in `Prompts/` and a line here.
/// `LinuxMachine.ownerPresenter(environment:)` and
/// `LinuxMachine.servicePresenter(terminal:environment:)` are the entry points
/// apps and `sesame` call.
enum PresenterChoice {
    /// A command the owner started: the controlling terminal, else in a
    /// graphical session the owner's pinentry, else nobody (so what would
    /// prompt fails at once instead of waiting for a finger nobody was asked
    /// for).
    static func owner(environment: [String: String]) -> (any PromptPresenter)? {
        if let terminal = TerminalPresenter() { return terminal }
        guard PinentryPresenter.isGraphicalSession(environment) else { return nil }
        return PinentryPresenter.find(environment: environment)
    }

    /// A program in the background that serves others: `terminal`, else
    /// pinentry or `$SSH_ASKPASS`; announced by a desktop notification
    /// unless pinentry shows the prompt itself.
    static func service(terminal: (any PromptPresenter)?, environment: [String: String]) -> (any PromptPresenter)? {
        let asking = terminal ?? PinentryPresenter.preferred(environment: environment)
        // A notification as well as pinentry's dialog would say it twice.
        if asking is PinentryPresenter { return asking }
        return NotifyingPresenter(wrapping: asking, environment: environment) ?? asking
    }
}
#endif
