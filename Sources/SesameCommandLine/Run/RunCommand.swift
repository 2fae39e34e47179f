import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// `sesame run --feature deploy --env TOKEN=api-token -- ./deploy.sh`:
/// checks the feature, reads the items into the command's environment, and
/// becomes the command.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a command with vault items in its environment, after the feature's check.",
        discussion: """
            Secrets go only into the command's environment, never into its arguments or sesame's output. \
            sesame is replaced by the command (exec), so the exit code is the command's. The command does \
            not run when a check fails or an item is missing (exit 3). A command that cannot be found exits \
            127, one that cannot be executed 126, as in a shell.
            """
    )

    @OptionGroup var options: VaultOptions

    @Option(help: "Authenticate for this feature first, when it is protected (see `sesame feature`).")
    var feature: String?

    @Option(name: .customLong("env"), help: ArgumentHelp(
        "Put the vault item NAME into the environment variable VAR; repeat for several.", valueName: "VAR=NAME"))
    var environment: [String] = []

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
        try await reporting(json: false) {
            let bindings = try EnvironmentBinding.parseAll(environment)
            if feature != nil || !bindings.isEmpty {
                try await prepare(bindings)
            }
        }
        // The secret descriptors are read; the command has no business with them.
        for descriptor in [options.passcodeFD, options.passwordFD].compactMap({ $0 }) { close(descriptor) }
        CommandExec.exec(command)
    }

    /// Everything that needs the vault, finished (and the vault closed)
    /// before the exec.
    private func prepare(_ bindings: [EnvironmentBinding]) async throws {
        let machine = try options.machine()
        let vault = try await options.open(machine)
        // Missing items first: nothing is asked for when the command cannot run anyway.
        for binding in bindings {
            guard try await vault.contains(service: service, account: binding.item) else {
                throw CommandFailure(status: .notFound, message: "no item \(binding.item) in service \(service); the command was not run")
            }
        }
        if let feature {
            let access = FeatureAccess(vault: vault, machine: machine, options: options)
            try await access.authenticate(Feature(rawValue: feature), reason: reason ?? "Run \(command[0]) (\(feature))")
        }
        guard !bindings.isEmpty else { return }
        // One context for every item: where the items' rules allow, one
        // scan serves them all.
        let context = options.context(machine)
        // The application password is read once (a descriptor cannot be
        // read twice) and serves every item that needs it. Each item's own
        // row says so; a tampered row fails its read below with its own error.
        var needsPassword = false
        for binding in bindings {
            if let item = try? await vault.attributes(service: service, account: binding.item) {
                needsPassword = needsPassword || item.accessControl.flags.contains(.applicationPassword)
            } else {
                needsPassword = needsPassword || options.passwordFD != nil
            }
        }
        if needsPassword {
            _ = context.setCredential(try await options.applicationPassword(machine), type: .applicationPassword)
        }
        for binding in bindings {
            let value = try await vault.read(service: service, account: binding.item,
                                             operationPrompt: reason ?? "Give \(binding.item) to \(command[0])", context: context)
            try CommandExec.export(binding.variable, value, item: binding.item)
        }
    }
}
