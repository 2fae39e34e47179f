import ArgumentParser

/// `sesame feature …`: which features need a fingerprint check (SPEC B, C).
struct FeatureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feature",
        _superCommandName: SesameCommand.name,
        abstract: "Choose which features need a fingerprint check, and check one (for scripts and `sesame run --feature`).",
        discussion: """
            Protection is kept in the vault, sealed under its key. Switching it on needs no scan but a \
            working reader; switching it off needs a fingerprint. When the enrolled fingerprints change \
            after protection was switched on, the next check also asks for the vault passcode.
            """,
        subcommands: [FeatureEnableCommand.self, FeatureDisableCommand.self, FeatureListCommand.self, FeatureCheckCommand.self]
    )
}
