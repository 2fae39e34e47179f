import ArgumentParser

/// `sesame`: Sesame's command-line front end.
@main
struct SesameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame",
        abstract: "Ask whether the owner is really here, with the fingerprint reader, the login password or an app passcode.",
        discussion: """
            Exit codes: 0 ok, 1 error, 2 usage, 4 authentication failed, 5 cancelled, \
            6 locked out, 7 not available, 10 not interactive.
            """,
        version: "0.1.0",
        subcommands: [StatusCommand.self, AuthenticateCommand.self]
    )

    /// Runs the command, mapping failures to ``ExitStatus`` codes; usage
    /// errors exit with 2 (ArgumentParser's default is 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            StandardError.exit(failure.status, "sesame: \(failure.message)")
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.exit(.usage, fullMessage(for: error))
            }
            exit(withError: error)
        }
    }
}
