#if os(Linux)
import Sesame

/// What Sesame says to pinentry for one request, in order: the greeting,
/// the terminal (only when there is one: a window pinentry needs none), the
/// texts, an error line for a retry, the request (`GETPIN`, or `CONFIRM`
/// for the dialog a scan keeps up), `BYE`.
struct PinentryScript: Sendable {
    /// What the conversation asks of the person.
    enum Request: Sendable {
        /// A secret, after `prompt` (`GETPIN`).
        case pin(prompt: String)
        /// Nothing: a dialog headed `prompt` with one button, `button`, up
        /// until the person presses it or closes the window, as gpg-agent's
        /// "touch your card" popup (`CONFIRM --one-button`).
        case notice(prompt: String, button: String)
        /// One of three buttons (`SETOK`, `SETNOTOK`, `SETCANCEL`), as for
        /// the owner's answer to an app that wants another app's item.
        /// `prompt` is the heading, as for a notice.
        case choice(prompt: String, ok: String, notOK: String, cancel: String)
    }

    /// How the conversation ended.
    enum Answer: Sendable {
        /// The secret `GETPIN` asked for.
        case pin(SecretBytes)
        /// The person closed the dialog: Cancel of `GETPIN`; the one
        /// button, Escape or the close box of a notice.
        case dismissed
        /// The OK button of a choice.
        case chose
        /// The not-OK button of a choice.
        case choseOther
    }

    var terminal: String?
    var terminalType: String?
    var title: String
    var description: String
    var error: String?
    var request: Request

    /// Runs the conversation; blocks.
    ///
    /// - Returns: The PIN, or that the person dismissed the dialog.
    func run(on connection: AssuanConnection) throws(PinentryError) -> Answer {
        try connection.greeting()
        if let terminal {
            try connection.transact("OPTION", "ttyname=\(terminal)")
            if let terminalType { try connection.transact("OPTION", "ttytype=\(terminalType)") }
        }
        try connection.transact("SETTITLE", title)
        try connection.transact("SETDESC", description)
        let answer: Answer
        switch request {
        case .pin(let prompt):
            try connection.transact("SETPROMPT", prompt)
            if let error { try connection.transact("SETERROR", error) }
            answer = try connection.getPIN().map(Answer.pin) ?? .dismissed
        case .notice(let prompt, let button):
            try connection.transact("SETPROMPT", prompt)
            try connection.transact("SETOK", button)
            if let error { try connection.transact("SETERROR", error) }
            // Either way the dialog is gone: the one button is the way out.
            _ = try connection.confirm("--one-button")
            answer = .dismissed
        case .choice(let prompt, let ok, let notOK, let cancel):
            try connection.transact("SETPROMPT", prompt)
            try connection.transact("SETOK", ok)
            try connection.transact("SETNOTOK", notOK)
            try connection.transact("SETCANCEL", cancel)
            switch try connection.confirmChoice() {
            case .ok: answer = .chose
            case .notOK: answer = .choseOther
            case .cancelled: answer = .dismissed
            }
        }
        connection.bye()
        return answer
    }
}
#endif
