import ArgumentParser

/// `sesame key`: protected keys (SPEC D7). The private key is made or
/// imported inside the vault and only ever used there: no subcommand
/// prints, exports or returns it.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        _superCommandName: SesameCommand.name,
        abstract: "Keys that sign, decrypt or agree on secrets inside the vault; their private part never leaves it.",
        discussion: """
            Algorithms: ed25519 and p256 sign; x25519 and p256-agreement decrypt and agree on secrets. \
            Using a key asks as its --access says (default user-presence: a fingerprint or the login \
            password); --no-interaction makes a needed prompt exit 10. Exit codes are those of the item \
            commands. Import a key with `sesame key import NAME < FILE`, then delete FILE.
            """,
        subcommands: [
            KeyCreateCommand.self, KeyImportCommand.self, KeyPublicCommand.self, KeySignCommand.self,
            KeyDecryptCommand.self, KeyEncryptCommand.self, KeyAgreeCommand.self, KeyListCommand.self, KeyRemoveCommand.self,
        ]
    )
}
