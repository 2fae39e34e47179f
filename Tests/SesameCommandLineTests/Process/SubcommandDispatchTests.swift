import ArgumentParser
import Foundation
@testable import SesameCommandLine
import Testing
import SesameSecretsInUse

/// `sesame` parses only the subcommand it runs: the dispatched
/// parse must give what the root's parse gives, for every command line, and
/// the help, completion and error output must stay byte for byte the same.
@Suite("sesame parses only the subcommand that runs")
struct SubcommandDispatchTests {
    /// Command lines that run a command, nested ones and a default subcommand included.
    static let runs: [[String]] = [
        ["status"], ["status", "--json"], ["get", "x"], ["get", "--service", "web", "x", "--json"],
        ["put", "x"], ["put", "--generate", "--length", "20", "x"], ["ls"], ["ls", "--json", "--service", "web"], ["rm", "x"],
        ["key", "sign", "k"], ["key", "sign", "--json", "--format", "raw", "k"], ["key", "create", "k", "--algorithm", "ed25519"],
        ["key", "ls"], ["key", "public", "k"], ["otp", "code", "x"], ["otp", "x"], ["otp", "add", "x"],
        ["passcode", "set"], ["passcode", "set", "--new-passcode-fd", "4"], ["passcode", "change", "--passcode-fd", "3", "--new-passcode-fd", "4"],
        ["feature", "check", "deploy"], ["feature", "list"], ["exit-codes"], ["run", "--", "true", "--help"], ["read", "sesame://web/x"],
        ["git-credential", "get"], ["git-credential", "--service", "git", "store"], ["key"], ["passcode"],
    ]

    /// Command lines the root answers: help, version, completions, usage errors.
    static let answered: [[String]] = [
        [], ["--help"], ["-h"], ["--version"], ["get", "--help"], ["get", "-h"],
        ["get", "x", "--version"], ["get", "x", "--reason", "--version"], ["put", "x", "--version"], ["put", "x", "--help"], ["key", "--help"], ["key", "sign", "--help"],
        ["key", "help", "sign"], ["otp", "code", "--help"], ["otp", "--help"], ["passcode", "set", "--help"],
        ["git-credential", "--help"], ["--generate-completion-script", "bash"], ["get", "--generate-completion-script", "zsh"],
        ["put", "x", "--generate-completion-script", "bash"], ["key", "sign", "--generate-completion-script", "fish"], ["exit-codes", "--help"],
        ["get", "--experimental-dump-help"], ["nonsense"], ["get"], ["get", "x", "y", "z"], ["get", "--bogus", "x"], ["get", "x", "--json", "--clip"],
        ["get", "x", "--reuse", "900"], ["key", "sign"], ["key", "nonsense"], ["key", "sign", "k", "--format"], ["otp", "add", "x", "secret"],
        ["put", "x", "value"], ["passcode", "set", "--passcode-fd", "3", "--new-passcode-fd", "3"], ["passcode", "nonsense"],
        ["git-credential"], ["git-credential", "get", "--service", ""], ["run"], ["read", "not-a-reference"], ["ls", "--json", "extra"],
    ]

    /// `sesame help ...`: ArgumentParser's own help command, which only the root has.
    static let helpCommand: [[String]] = [["help"], ["help", "get"], ["help", "key", "sign"], ["help", "security"]]

    @Test("help with a word that names no command or topic is a usage error, where the root's parse would print its help and exit 0")
    func helpWithUnknownWord() {
        #expect(Outcome(SesameCommand.parseAsRoot, ["help", "nonsense"]) != Outcome(SesameCommand.parse(dispatching:), ["help", "nonsense"]))
        #expect(throws: ValidationError.self) { try SesameCommand.parse(dispatching: ["help", "nonsense"]) }
        #expect(SubcommandDispatch.parse(["help", "nonsense"], among: SesameCommand.commands) == nil)
    }

    @Test("every command line parses to the same command, or fails with the same message and exit code, as the root's parse",
          arguments: runs + answered + helpCommand)
    func sameAsRootParse(arguments: [String]) {
        #expect(Outcome(SesameCommand.parse(dispatching:), arguments) == Outcome(SesameCommand.parseAsRoot, arguments))
    }

    @Test("a command that runs is parsed by its own subcommand alone", arguments: runs)
    func dispatched(arguments: [String]) throws {
        let command = try #require(SubcommandDispatch.parse(arguments, among: SesameCommand.commands), "\(arguments) fell back to the root")
        #expect(Outcome(parsed: command) == Outcome(SesameCommand.parseAsRoot, arguments))
    }

    @Test("the first argument picks the subcommand whose own parse sees the rest", arguments: [
        (["key", "sign", "k"], "KeyCommand", ["sign", "k"]), (["otp", "x"], "OTPCommand", ["x"]), (["get", "x"], "GetCommand", ["x"]),
        (["git-credential", "get"], "GitCredentialCommand", ["get"]), (["exit-codes"], "ExitCodesTopic", []),
    ])
    func route(arguments: [String], command: String, rest: [String]) throws {
        let (type, remaining) = try #require(SubcommandDispatch.route(arguments, among: SesameCommand.commands))
        #expect(String(describing: type) == command)
        #expect(remaining == rest)
        #expect(SubcommandDispatch.route(["help"] + arguments, among: SesameCommand.commands) == nil)
    }

    @Test("every command names sesame as its super-command, so its own parse skips the completion-script check")
    func superCommand() {
        for command in SesameCommand.commands where !HelpTopic.commands.contains(where: { $0 == command }) {
            #expect(command.configuration._superCommandName == SesameCommand.name, "\(command)")
        }
        #expect(SesameCommand.configuration.subcommands.map(ObjectIdentifier.init) == SesameCommand.commands.map(ObjectIdentifier.init))
    }

    @Test("help, version, completions and usage errors fall back to the root", arguments: answered + helpCommand)
    func answeredByRoot(arguments: [String]) {
        #expect(SubcommandDispatch.parse(arguments, among: SesameCommand.commands) == nil)
    }

    @Test("the binaries print exactly what the root's parse says, with its exit code",
          arguments: (answered + helpCommand).map { ("sesame", $0) } + [["--help"], ["get", "extra"], ["--bogus"], []].map { ("git-credential-sesame", $0) })
    func binaryOutput(binary: String, arguments: [String]) async throws {
        let rootArguments = binary == "sesame" ? arguments : ["git-credential"] + arguments
        let error = try #require(await Self.rootAnswer(rootArguments), "\(arguments) runs a command")
        let executable = SesameBinary.url.deletingLastPathComponent().appendingPathComponent(binary)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("dispatch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await SesameBinary.run(arguments, environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "COLUMNS": "80", "LINES": "24"],
                                                executable: executable)
        let message = SesameCommand.fullMessage(for: error, columns: 80) + "\n"
        var status = SesameCommand.exitCode(for: error).rawValue
        if status == ExitCode.validationFailure.rawValue { status = 2 }   // sesame's usage status
        #expect(result.status == status)
        if SesameCommand.exitCode(for: error) == .success {
            #expect(result.stdout == message)
            #expect(result.stderr.isEmpty)
        } else {
            #expect(result.stderr == message)
            #expect(result.output.isEmpty)
        }
    }

    /// What the root's parse answers for a command line that asks for help
    /// or is wrong: the error of its parse, or of running the help command or
    /// the command group it parsed to (they only print); `nil` for any other command.
    private static func rootAnswer(_ arguments: [String]) async -> (any Error)? {
        do {
            var command = try SesameCommand.parseAsRoot(arguments)
            guard command is SesameCommand || String(describing: type(of: command)) == "HelpCommand" else { return nil }
            if var command = command as? any AsyncParsableCommand { try await command.run() } else { try command.run() }
            return nil
        } catch {
            return error
        }
    }

    @Test("a group run without its subcommand prints the root's help for it", arguments: [["key"], ["passcode"], ["feature"]])
    func groupHelp(arguments: [String]) async throws {
        var command = try #require(SubcommandDispatch.parse(arguments, among: SesameCommand.commands) as? any AsyncParsableCommand)
        let error: any Error
        do {
            try await command.run()
            Issue.record("\(arguments) ran without asking for help")
            return
        } catch let thrown {
            error = thrown
        }
        let result = try await SesameBinary.run(arguments, environment: ["HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin", "COLUMNS": "80"])
        #expect(result.status == 0)
        #expect(result.stdout == SesameCommand.fullMessage(for: error, columns: 80) + "\n")
    }
}

/// What a parse gave: the command's type and every decoded value, or the
/// error's message and exit code.
private enum Outcome: Equatable {
    case command(String)
    case error(String, Int32)

    init(parsed command: any ParsableCommand) {
        var text = ""
        dump(command, to: &text)
        self = .command(text)
    }

    init(_ parse: ([String]) throws -> any ParsableCommand, _ arguments: [String]) {
        do {
            self.init(parsed: try parse(arguments))
        } catch {
            self = .error(SesameCommand.fullMessage(for: error, columns: 80), SesameCommand.exitCode(for: error).rawValue)
        }
    }
}
