import ArgumentParser

/// `sesame passkey`: passkeys (SPEC P), a FIDO2 authenticator whose user
/// verification is the owner's finger or login password.
struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        _superCommandName: SesameCommand.name,
        abstract: "Passkeys: a FIDO2 authenticator for browsers, its keys in the vault under your finger.",
        discussion: """
            `sesame passkey serve` is the authenticator a browser talks to; `ls` and `rm` manage what it \
            made. A passkey's private key never leaves the vault: `export` leaves passkeys out.
            """,
        subcommands: [PasskeyServeCommand.self, PasskeyListCommand.self, PasskeyRemoveCommand.self]
    )
}
