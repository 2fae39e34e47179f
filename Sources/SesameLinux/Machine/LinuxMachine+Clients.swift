#if os(Linux)
import CSesameLinux
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

extension LinuxMachine {
    /// Where a service asks the person behind one request ("ask where the
    /// person is"): on the asking client's terminal when the client is in
    /// its foreground and the terminal is this user's; else on the
    /// service's own terminal while the service runs in its foreground;
    /// else in a dialog on the display (``servicePresenter(terminal:environment:)``,
    /// never a text pinentry on `$GPG_TTY`); else nobody, and the reason
    /// says why. The one rule the SSH agent and the Secret Service use for
    /// each request.
    ///
    /// Call it on the machine ``servingOthers(interactive:)`` returned:
    /// its presenter is the service's own terminal or dialog.
    ///
    /// - Parameters:
    ///   - pid: The client process (`SO_PEERCRED`, the bus's credentials);
    ///     `nil` when not known.
    ///   - connectedBy: A `CLOCK_BOOTTIME` reading in nanoseconds at which
    ///     the client's connection already existed: a process started
    ///     later has only reused the pid, and its terminal is not asked.
    /// - Returns: The place, and the presenter that asks there.
    public func prompt(forClient pid: Int32?, connectedBy: UInt64) -> ClientPrompt {
        let client = pid.flatMap { AskingClient.read(pid: $0, connectedBy: connectedBy) }
        return PresenterChoice.client(client, pid: pid, fallback: authenticators.presenter)
    }

    /// A context for one request of a client: ``context()`` with the
    /// presenter ``prompt(forClient:connectedBy:)`` chose. Where nobody can
    /// be asked, what would prompt fails at once with `notInteractive`
    /// saying so (`AuthenticationContext/refuseInteraction(nobodyToAsk:)`),
    /// never as the owner's Cancel.
    ///
    /// - Parameters:
    ///   - pid: The client process; `nil` when not known.
    ///   - connectedBy: When its connection already existed (`CLOCK_BOOTTIME`, ns).
    /// - Returns: The context.
    public func context(forClient pid: Int32?, connectedBy: UInt64) -> AuthenticationContext {
        let prompt = prompt(forClient: pid, connectedBy: connectedBy)
        var machine = self
        machine.authenticators.presenter = prompt.presenter
        let context = machine.context()
        if case .nobody(let why) = prompt.place { context.refuseInteraction(nobodyToAsk: why) }
        return context
    }

    /// Where a service started from this session (`sesame ssh-agent
    /// --print-env`, the Secret Service) would ask for a program run in
    /// this shell, for `sesame doctor` and `sesame setup`: this process
    /// stands for the client, and the service's dialog is chosen from
    /// `environment` as the service would choose it.
    ///
    /// - Parameters:
    ///   - environment: The environment the service would inherit.
    ///   - programHasTerminal: `false` asks about a program without a
    ///     terminal (an IDE, a desktop shortcut) instead of this one.
    /// - Returns: The place.
    public static func promptInThisSession(
        environment: [String: String] = ProcessInfo.processInfo.environment, programHasTerminal: Bool = true
    ) -> ClientPrompt {
        let client = programHasTerminal
            ? AskingClient.read(pid: getpid(), connectedBy: sesame_boottime_nanoseconds())
            : AskingClient(pid: 0, described: "a program without a terminal", terminal: .none)
        return PresenterChoice.client(client, pid: getpid(), fallback: PresenterChoice.service(terminal: nil, environment: environment))
    }
}
#endif
