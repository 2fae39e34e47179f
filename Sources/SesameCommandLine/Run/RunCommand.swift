import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
import SesameSecretsInUse

/// `sesame run --feature deploy --env TOKEN=api-token -- ./deploy.sh`:
/// checks the feature, reads the items into the command's environment, and
/// becomes the command.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        _superCommandName: SesameCommand.name,
        abstract: "Run a command with vault items in its environment, after the feature's check.",
        discussion: """
            Secrets go only into the command's environment, never into its arguments or sesame's output. \
            --env-file reads a dotenv file whose values may be sesame://SERVICE/NAME references (single-quoted \
            values are literal). The command does not run when a check fails or an item is missing (exit 3). \
            The values read from the vault are replaced by <concealed by sesame> in the command's standard \
            output and error, which therefore reach it through pipes; sesame ends as the command did (its \
            exit code, or the same signal). With --no-masking, or when no item is read, sesame is replaced by \
            the command (exec), which then keeps the terminal. A command that cannot be found exits 127, one \
            that cannot be executed 126, as in a shell.
            """
    )

    @OptionGroup var options: VaultOptions

    @Option(help: "Authenticate for this feature first, when it is protected (see `sesame feature`).")
    var feature: String?

    @Option(name: .customLong("env"), help: ArgumentHelp(
        "Put the vault item NAME into the environment variable VAR; repeat for several.", valueName: "VAR=NAME"))
    var environment: [String] = []

    @Option(name: .customLong("env-file"), help: ArgumentHelp(
        "A dotenv file of VAR=value lines; a value that is a sesame:// reference becomes the item's value. Repeatable.",
        valueName: "FILE"))
    var environmentFiles: [String] = []

    @Flag(help: "Do not conceal the secrets in the command's output; the command runs in sesame's place (exec).")
    var noMasking = false

    @Option(help: "The service the --env items belong to.")
    var service = ItemOptions.defaultService

    @Option(help: "Why you ask, shown on the prompts.")
    var reason: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty, !command[0].isEmpty else {
            throw ValidationError("no command given: sesame run [options] -- COMMAND [ARGS...]")
        }
        _ = try EnvironmentBinding.parseAll(environment)
        if let feature { try FeatureName.check(feature) }
        if service.isEmpty { throw ValidationError("--service must not be empty") }
        // The command inherits 0, 1 and 2: a passcode file there could be
        // read again by it (a regular file can be rewound).
        for (name, descriptor) in [("--passcode-fd", options.passcodeFD), ("--password-fd", options.passwordFD)] {
            if let descriptor, descriptor <= 2 {
                throw ValidationError("\(name) must be 3 or more: the command inherits standard input, output and error")
            }
        }
    }

    func run() async throws {
        var secrets: [SecretBytes] = []
        try await reporting(json: false) {
            let entries = try environmentEntries()
            let references = entries.compactMap { if case .reference(let reference) = $0.value { reference } else { nil } }
            if feature != nil || !references.isEmpty {
                secrets = try await prepare(references)
            }
            for entry in entries {
                switch entry.value {
                case .literal(let text): try CommandEnvironment.export(entry.variable, SecretBytes(utf8: text), item: entry.variable)
                case .reference(let reference): try CommandEnvironment.export(entry.variable, secrets[references.firstIndex(of: reference)!], item: reference.name)
                }
            }
        }
        // The secret descriptors are read; the command has no business with them.
        for descriptor in [options.passcodeFD, options.passwordFD].compactMap({ $0 }) { close(descriptor) }
        if noMasking || secrets.isEmpty { ProcessStart.replacingSesame(with: command) }
        await MaskedCommand.run(command, secrets: secrets)
    }

    /// `--env` and every `--env-file`, in that order; a variable given twice
    /// anywhere is refused.
    private func environmentEntries() throws -> [EnvironmentFile.Entry] {
        var entries = try EnvironmentBinding.parseAll(environment).map {
            EnvironmentFile.Entry(variable: $0.variable, value: .reference(SecretReference(service: service, name: $0.item)))
        }
        for path in environmentFiles {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure(status: .failure, message: "cannot read the env file \(path); the command was not run")
            }
            guard let text = String(validating: Array(data), as: UTF8.self) else {
                throw CommandFailure(status: .usage, message: "\(path) is not UTF-8 text; the command was not run")
            }
            do {
                for entry in try EnvironmentFile(parsing: text, path: path).entries {
                    if entries.contains(where: { $0.variable == entry.variable }) {
                        throw CommandFailure(status: .usage, message: "\(entry.variable) is set twice (\(path) and an earlier --env or --env-file)")
                    }
                    entries.append(entry)
                }
            } catch let error as EnvironmentFile.ParseError {
                throw CommandFailure(status: .usage, message: error.description)
            }
        }
        return entries
    }

    /// Everything that needs the vault, finished (and the vault closed)
    /// before the command starts: the values of `references`, in order.
    private func prepare(_ references: [SecretReference]) async throws -> [SecretBytes] {
        let resolver = try await ReferenceResolver.open(options)
        // Missing items first: nothing is asked for when the command cannot run anyway.
        try await resolver.requireExisting(references, consequence: "the command was not run")
        if let feature {
            let access = FeatureAccess(vault: resolver.vault, machine: resolver.machine, options: options)
            try await access.authenticate(Feature(rawValue: feature), reason: reason ?? "Run \(command[0]) (\(feature))")
        }
        guard !references.isEmpty else { return [] }
        let values = try await resolver.read(references) { reason ?? "Give \($0.joined(separator: ", ")) to \(command[0])" }
        return references.compactMap { values[$0] }
    }
}
