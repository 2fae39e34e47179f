#if os(Linux)
import Sesame

/// Which presenter asks the owner, in one place beside the presenters: a new
/// kind of prompt is a file in `Prompts/` and a line here.
/// `LinuxMachine.ownerPresenter(environment:)`,
/// `LinuxMachine.servicePresenter(terminal:environment:)` and
/// `LinuxMachine.prompt(forClient:connectedBy:)` are the entry points apps
/// and `sesame` call.
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

    /// A program in the background that serves others, when no client's
    /// terminal can ask: its own terminal while it runs in that terminal's
    /// foreground (started there by hand: nobody else reads it), else a
    /// dialog (``dialog(environment:)``), announced by a desktop
    /// notification unless pinentry shows the prompt itself.
    ///
    /// `$GPG_TTY` is dropped: in a service it names the shell that started
    /// it, whose shell would share the keys typed for pinentry (and keep a
    /// typed password in its history).
    /// A presenter the caller made itself (a password read from a
    /// descriptor) is kept as it is.
    static func service(terminal given: (any PromptPresenter)?, environment: [String: String]) -> (any PromptPresenter)? {
        switch given {
        case let terminal as TerminalPresenter where terminal.isInForeground: return terminal
        case is TerminalPresenter, is PinentryPresenter, nil: break
        case let presenter?: return presenter
        }
        let asking = dialog(environment: environment)
        // A notification as well as pinentry's dialog would say it twice.
        if asking is PinentryPresenter { return asking }
        // A notification alone can announce a scan only where a desktop shows it.
        guard asking != nil || PinentryPresenter.isGraphicalSession(environment) else { return nil }
        return NotifyingPresenter(wrapping: asking, environment: environment) ?? asking
    }

    /// A dialog that needs no terminal: in a graphical session pinentry or
    /// `$SSH_ASKPASS` (``PinentryPresenter/preferred(environment:)``);
    /// elsewhere only `$SSH_ASKPASS`, the owner's own program. Never a
    /// text pinentry on `$GPG_TTY`.
    static func dialog(environment: [String: String]) -> (any PromptPresenter)? {
        var environment = environment
        environment["GPG_TTY"] = nil
        guard PinentryPresenter.isGraphicalSession(environment) else { return AskpassPresenter(environment: environment) }
        return PinentryPresenter.preferred(environment: environment)
    }

    /// Where to ask the person behind one request to a service: the
    /// client's terminal when it is in the foreground there and is this
    /// user's; else `fallback` (the service's presenter from
    /// ``service(terminal:environment:)``: its own foreground terminal, or a
    /// dialog); else nobody, saying why.
    static func client(_ client: AskingClient?, pid: Int32?, fallback: (any PromptPresenter)?) -> ClientPrompt {
        if case .foreground(let path)? = client?.terminal, let terminal = TerminalPresenter(path: path) {
            return ClientPrompt(place: .terminal(path), presenter: terminal)
        }
        switch fallback {
        case let own as TerminalPresenter where own.isInForeground:
            return ClientPrompt(place: .terminal(own.devicePath), presenter: own)
        case is TerminalPresenter, nil:
            break
        case let dialog?:
            return ClientPrompt(place: .dialog, presenter: dialog)
        }
        let who = client?.described ?? pid.map { "pid \($0)" } ?? "the client"
        let terminal = switch client?.terminal {
        case .foreground(let path)?: "its terminal \(path) cannot be opened"
        case .background(let path)?: "it is not in the foreground of its terminal \(path)"
        case .notThisUsers(let path)?: "its terminal \(path) is another user's"
        case .none?: "it has no terminal"
        case nil: "it cannot be looked at (gone, or not known)"
        }
        return ClientPrompt(place: .nobody("\(who): \(terminal), and there is no display (no pinentry dialog, no SSH_ASKPASS)"), presenter: nil)
    }
}
#endif
