import ArgumentParser

/// `sesame passcode set|change|remove`: the vault's passcode slot and its attempt limits.
struct PasscodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode",
        _superCommandName: SesameCommand.name,
        abstract: "Set, change or remove the vault passcode.",
        discussion: """
            Wrong passcodes are counted across runs: from the 5th in a row sesame waits 1 minute, then 5, \
            15, 15 and 60 minutes, and checks nothing while a wait runs (exit 6). A right passcode resets the count.
            """,
        subcommands: [PasscodeSetCommand.self, PasscodeChangeCommand.self, PasscodeRemoveCommand.self, PasscodeResetCommand.self]
    )
}
