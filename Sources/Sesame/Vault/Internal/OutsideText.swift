/// The one check of names and dates that come from outside (SPEC D9),
/// wherever an item or a key is made: `add`, `import`, `createKey`,
/// `importKey`, a git credential, a one-time code.
package enum OutsideText {
    /// How far in the future an imported date may be: clocks of two
    /// machines differ a little, not by years.
    package static let allowedSkew: Double = 5 * 60

    /// - Throws: ``VaultError`` with `invalidName` when a part holds a
    ///   control character (the message shows it escaped).
    package static func checkNames(service: String, account: String, label: String?, what: String) throws(VaultError) {
        for (part, text) in [("service", service), ("name", account), ("label", label ?? "")] where text.containsControlCharacters {
            throw VaultError(.invalidName, """
                The \(what)'s \(part) "\(text.escapingControlCharacters())" holds a control character; \
                names cannot hold one (it would reach a terminal as a command)
                """)
        }
    }

    /// The label for a key whose comment came with it (an OpenSSH file's,
    /// or `ssh-add`'s), or `nil` for none. Unlike a label the caller gives,
    /// nobody typed it for this vault: it is kept with its control
    /// characters escaped (SPEC D9) instead of refusing the key, as OpenSSH's
    /// agent keeps any comment.
    package static func label(fromComment comment: String?) -> String? {
        guard let comment, !comment.isEmpty else { return nil }
        return comment.escapingControlCharacters()
    }

    /// Why `date` (seconds since 1970) cannot be stored, or `nil`: it must be
    /// finite, not before 1970, and not later than `now` plus ``allowedSkew``.
    package static func problem(date: Double, now: Double) -> String? {
        guard date.isFinite else { return "its date is not a number of seconds (\(date))" }
        guard date >= 0 else { return "its date is before 1970" }
        guard date <= now + allowedSkew else { return "its date is in the future" }
        return nil
    }
}
