#if os(Linux)
import Sesame

/// Where a service (the SSH agent, the Secret Service) asks the person
/// behind one request, chosen by ``LinuxMachine/prompt(forClient:connectedBy:)``:
/// the asking client's own terminal when it is in the foreground there,
/// else a dialog on the display, else nobody. A terminal the service did
/// not get from the asking client (the shell that started it, `$GPG_TTY`)
/// is never one of them: keystrokes typed there would be split between the
/// prompt and that shell.
public struct ClientPrompt: Sendable {
    /// Which of the three it is.
    public enum Place: Sendable, Hashable {
        /// The client's terminal (or the service's own, when the service
        /// runs in its foreground), by device path.
        case terminal(String)
        /// A dialog: pinentry's window or `$SSH_ASKPASS`, with a desktop
        /// notification where there is a session bus.
        case dialog
        /// Nobody can be asked; the text says why.
        case nobody(String)
    }

    /// Where the prompt appears.
    public let place: Place
    /// What shows it; `nil` exactly when ``place`` is ``Place/nobody(_:)``.
    public let presenter: (any PromptPresenter)?

    /// A phrase for `doctor` and `setup`: "on the terminal /dev/pts/3",
    /// "in a dialog on the display", "nobody: …".
    public var summary: String {
        switch place {
        case .terminal(let path): "on the terminal \(path.escapingControlCharacters())"
        case .dialog: "in a dialog on the display"
        case .nobody(let why): "nobody: \(why)"
        }
    }

    init(place: Place, presenter: (any PromptPresenter)?) {
        self.place = place
        self.presenter = presenter
    }
}
#endif
