import ArgumentParser
import Sesame
import SesameSSH
import SesameSecretsInUse

/// `sesame`: Sesame's command-line front end.
public struct SesameCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Ask whether the owner is really here, with the fingerprint reader, the login password or an app passcode.",
        discussion: """
            Exit codes: 0 ok, 1 error, 2 usage, 3 not found, 4 authentication failed, 5 cancelled, \
            6 locked out, 7 not available, 8 item invalidated by an enrolment change, \
            9 vault damaged, tampered with or open to others, 10 not interactive, \
            11 invalid name (a control character in a service, name or label), \
            12 untrusted (a socket, its folder or its server is another user's or another program's).
            With --json, errors are printed on standard output as \
            {"error": {"code": N, "status": "...", "message": "..."}}.

            Help topics:
            \(HelpTopic.index)

            Shell completions: sesame --generate-completion-script bash|zsh|fish
            """,
        version: version,
        subcommands: commands
    )

    /// The subcommands, apart from the configuration: finding the one to run
    /// must not build the root's help text (its topic index reflects on types).
    /// The help topics only print, and keep their own usage line ("exit-codes").
    static let commands: [any ParsableCommand.Type] = [
        StatusCommand.self, AuthenticateCommand.self,
        InitCommand.self, PutCommand.self, GetCommand.self, ListCommand.self, RemoveCommand.self,
        PasscodeCommand.self, ExportCommand.self, ImportCommand.self, LockCommand.self,
        FeatureCommand.self, RunCommand.self, ReadCommand.self, InjectCommand.self, KeyCommand.self, SSHAgentCommand.self,
        OTPCommand.self, PasskeyCommand.self, ClipboardClearCommand.self, GitCredentialCommand.self, DeviceKeyCommand.self,
        SetupCommand.self, DoctorCommand.self, AppCommand.self,
    ] + platformCommands + HelpTopic.commands

    /// Commands of this platform's integrations only.
    #if os(Linux)
    static let platformCommands: [any ParsableCommand.Type] = [SecretServiceCommand.self]
    #else
    static let platformCommands: [any ParsableCommand.Type] = []
    #endif

    /// The command's name. Each subcommand names it as its super-command, so
    /// that its own parse (``parse(dispatching:)``) leaves completion-script
    /// requests to the root's: ArgumentParser looks for them, reflecting on
    /// its completion commands, only when the command it parses has none.
    static let name = "sesame"

    /// What `sesame --version` prints: the release, then the vault format it
    /// writes (older formats are migrated in place, newer ones refused).
    public static let version = "\(release) (vault format \(Vault.currentFormat))"

    /// This release of Sesame: the Debian package's version.
    public static let release = "0.2.0"

    /// The root command, as ArgumentParser creates it; prints the help.
    public init() {}

    /// Parses a command line as ``parseAsRoot(_:)`` does, with the same
    /// result, the same errors and the same messages, but building only the
    /// tree of the subcommand it names when that subcommand's own parse
    /// succeeds; help, completions, `--version` and every error are parsed
    /// from the root.
    ///
    /// - Parameter arguments: The arguments after the program's name.
    /// - Returns: The parsed command, ready to run.
    /// - Throws: What ``parseAsRoot(_:)`` throws for `arguments`.
    public static func parse(dispatching arguments: [String]) throws -> any ParsableCommand {
        // ArgumentParser answers `help NOSUCH` with the root's help and exit 0: a typo would look like an answer.
        if arguments.first == "help", arguments.count > 1, !arguments[1].hasPrefix("-"),
           SubcommandDispatch.route(Array(arguments.dropFirst()), among: commands) == nil {
            throw ValidationError("no command or help topic \"\(arguments[1].escapingControlCharacters())\"; `sesame help` lists them")
        }
        if let command = SubcommandDispatch.parse(arguments, among: commands) { return command }
        return try parseAsRoot(arguments)
    }

    /// Parses this process's arguments and runs the command, then exits with
    /// its status: failures map to ``ExitStatus`` codes, usage errors to 2
    /// (ArgumentParser's default is 64). Never returns.
    ///
    /// - Parameter arguments: The arguments after the program's name; this
    ///   process's by default (`git-credential-sesame` puts `git-credential` first).
    public static func runFromCommandLine(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parse(dispatching: arguments ?? Array(CommandLine.arguments.dropFirst()))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            if failure.json { JSONOutput.exit(failure) }
            // SPEC D9: a message may quote a name from outside; it reaches the terminal escaped.
            StandardError.exit(failure.status, "sesame: \(failure.message.escapingControlCharacters(keepingLineBreaks: true))")
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.exit(.usage, fullMessage(for: error))
            }
            exit(withError: error)
        }
        exit(withError: nil)
    }
}
