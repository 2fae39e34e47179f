#if os(Linux)
import Sesame

/// What Sesame says to pinentry for one request, in order: the greeting,
/// the terminal (only when there is one: a window pinentry needs none), the
/// texts, an error line for a retry, `GETPIN`, `BYE`.
struct PinentryScript: Sendable {
    var terminal: String?
    var terminalType: String?
    var title: String
    var description: String
    var prompt: String
    var error: String?

    /// Runs the conversation; blocks.
    ///
    /// - Returns: The PIN, or `nil` when the person cancelled.
    func run(on connection: AssuanConnection) throws(PinentryError) -> SecretBytes? {
        try connection.greeting()
        if let terminal {
            try connection.transact("OPTION", "ttyname=\(terminal)")
            if let terminalType { try connection.transact("OPTION", "ttytype=\(terminalType)") }
        }
        try connection.transact("SETTITLE", title)
        try connection.transact("SETDESC", description)
        try connection.transact("SETPROMPT", prompt)
        if let error { try connection.transact("SETERROR", error) }
        let pin = try connection.getPIN()
        connection.bye()
        return pin
    }
}
#endif
