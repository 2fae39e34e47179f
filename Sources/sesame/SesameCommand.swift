import ArgumentParser

/// `sesame`: Sesame's command-line front end.
@main
struct SesameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame",
        abstract: "Ask whether the owner is really here, with the fingerprint reader, the login password or an app passcode.",
        version: "0.1.0",
        subcommands: [StatusCommand.self]
    )
}
