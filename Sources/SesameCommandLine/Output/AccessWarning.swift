import Sesame
#if os(Linux)
import SesameLinux
#endif

/// The warning for an item or key stored under an access control that
/// nothing on this machine can satisfy now: the store succeeds (a reader or
/// a PAM service may come later), the owner learns why reading will fail.
enum AccessWarning {
    /// The warning's text, or `nil` when something can satisfy `control`.
    ///
    /// - Parameters:
    ///   - control: The access control the item or key was stored under.
    ///   - what: The item or key, as the owner named it.
    ///   - machine: This machine.
    static func text(for control: AccessControl, what: String, machine: Machine) async -> String? {
        if let reason = await control.unsatisfiableReason(on: machine.authenticators) {
            return "\(what) is stored, but its access (\(AccessArgument.describe(control))) cannot be given here: \(reason). "
                + "Reading it fails until then; `sesame doctor` says what to set up"
        }
        #if os(Linux)
        // The reader and PAM are there, yet nothing here can ask for them (a
        // text session without a terminal in the foreground, no display):
        // the agent and the Secret Service would refuse it at once, rather than wait for a finger nobody was asked for.
        guard !control.userFactors.isEmpty, case .nobody(let why) = Machine.promptInThisSession().place else { return nil }
        return "\(what) is stored, but its access (\(AccessArgument.describe(control))) cannot be given here: nobody could be asked (\(why)). "
            + "Using it fails until a program asks from a terminal it runs in the foreground of, or a display; `sesame doctor` says more"
        #else
        return nil
        #endif
    }

    /// Writes the warning to standard error, escaped (names come from the owner's arguments).
    static func report(_ text: String?) {
        guard let text else { return }
        StandardError.write("sesame: warning: \(text.escapingControlCharacters())\n")
    }
}
