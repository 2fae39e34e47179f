#if os(Linux)
import Sesame

extension LinuxMachine {
    /// This machine as a program that serves others sees it (an SSH agent,
    /// the Secret Service, `passkey serve`): its prompts reach the owner
    /// from the background through
    /// ``servicePresenter(terminal:environment:)``: the terminal it was
    /// started on, else pinentry or `$SSH_ASKPASS` with a desktop
    /// notification. The one recipe every daemon uses, so that none asks
    /// differently from the others.
    ///
    /// - Parameter interactive: `false` (`--no-interaction`) keeps the
    ///   presenter as it is: a password given on a descriptor, or none, so
    ///   that what needs a prompt fails at once.
    /// - Returns: The machine with a daemon's presenter.
    public func servingOthers(interactive: Bool) -> LinuxMachine {
        guard interactive else { return self }
        var machine = self
        machine.authenticators.presenter = Self.servicePresenter(terminal: authenticators.presenter, environment: environment)
        return machine
    }
}
#endif
