/// One line of `sesame doctor`: what was checked, what was found and, when
/// something is wrong, the command that fixes it.
struct DoctorCheck: Encodable, Sendable {
    /// How the check came out. The raw values are `doctor --json`'s words,
    /// which scripts read: they never change.
    enum Status: String, Encodable, Sendable, CaseIterable {
        /// Works.
        case ok
        /// Missing or unusual, but nothing set up depends on it.
        case warning
        /// A role that was set up does not work, or the vault is unusable.
        case failed
        /// The role was not set up with `sesame setup`; shown for information.
        case notSetUp
    }

    /// `vault`, `fingerprint`, `pam`, `units`, `prompts`, or a role's check
    /// (`secret-service`, `ssh-agent`, `git`, `passkeys`).
    var check: String
    var status: Status
    /// What was found, in words (control characters escaped).
    var detail: String
    /// The command that fixes it, when it is not ok (control characters escaped).
    var fix: String?
    /// Facts for scripts: the bus owner's pid, the activation file, the socket…
    var facts: [String: String]?

    init(_ check: String, _ status: Status, _ detail: String, fix: String? = nil, facts: [String: String]? = nil) {
        self.check = check
        self.status = status
        self.detail = detail.escapingControlCharacters()
        // Fixes name paths and programs from outside too ($XDG_RUNTIME_DIR, a helper's folder): escaped as the detail is.
        self.fix = fix?.escapingControlCharacters()
        self.facts = facts
    }

    /// The status column's width: the longest word ("not set up") and two
    /// spaces, so that it never reads as one phrase with the check's name.
    static let statusWidth = 12
    /// The check column's width: the longest name ("secret-service") and two spaces.
    static let checkWidth = 16

    /// The text line (and its fix on the next).
    var text: String {
        let word = switch status {
        case .ok: "ok"
        case .warning: "warning"
        case .failed: "FAILED"
        case .notSetUp: "not set up"
        }
        var line = word.padding(toLength: Self.statusWidth, withPad: " ", startingAt: 0)
            + check.padding(toLength: max(Self.checkWidth, check.count + 2), withPad: " ", startingAt: 0) + detail
        if let fix { line += "\n" + String(repeating: " ", count: Self.statusWidth + Self.checkWidth) + "fix: " + fix }
        return line
    }
}
