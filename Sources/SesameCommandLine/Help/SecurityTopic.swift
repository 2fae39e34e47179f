import ArgumentParser

/// `sesame help security`: what Sesame protects against, and what not.
struct SecurityTopic: HelpTopicCommand {
    static let configuration = CommandConfiguration(
        commandName: "security",
        abstract: "The security model: what each protection defends against.",
        usage: "sesame help security",
        discussion: """
            The vault is one SQLite file (0600, in a 0700 directory; Sesame refuses a vault others can read). \
            Every value is encrypted with AES-GCM under a key of its own; item keys are wrapped by keys derived \
            from the vault's master key and the item's access control. The master key is kept only wrapped, in \
            key slots: the device slot (a 0600 key file outside the vault), the passcode slot (scrypt of the \
            vault passcode) and the recovery slot (the recovery key printed once by `sesame init`).

            What it defends against: a copied vault file without the device key file or the passcode; another \
            user on the machine; a person at an unlocked session without the owner's finger or login password \
            (items with access flags); an altered vault (every row is authenticated: exit 9).

            What it does not: on Linux a fingerprint reader answers "match / no match" and no key comes out of \
            the sensor, so malware running as your user can read the device key file and the vault. The \
            fingerprint check stops a person, not your own account. Use a passcode-only vault \
            (`sesame init --passcode-only`) when the key must not sit on the disk.

            Secrets never travel in arguments or the environment of sesame itself: values come from standard \
            input, passcodes and passwords from the terminal or a file descriptor (--passcode-fd, --password-fd). \
            Wrong passcodes are delayed, escalating, and the delays survive restarts. \
            `get --clip` leaves the value on the clipboard, where every program of the display can read it, for \
            45 s ($SESAME_CLIP_SECONDS); it is then cleared if the clipboard still holds it. \
            The full model: docs/SECURITY.md.
            """,
        shouldDisplay: false
    )
}
