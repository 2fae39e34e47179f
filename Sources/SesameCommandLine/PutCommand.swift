import ArgumentParser
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// `sesame put NAME`: stores the value read from standard input.
struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        _superCommandName: SesameCommand.name,
        abstract: "Store a secret read from standard input (or typed, masked, on the terminal).",
        discussion: """
            The value is read from standard input byte for byte (use `printf %s` rather than `echo` \
            to avoid a trailing newline), never from the command line, where ps and shell history \
            would show it. --access flags: \(AccessArgument.names.map(\.0).joined(separator: ", ")); \
            join them with `,` for any one or `+` for all, not both. With --generate the value is made \
            from the system's CSPRNG instead, stored, and printed nowhere (read it with `get`).
            """
    )

    @OptionGroup var item: ItemOptions
    @OptionGroup var options: VaultOptions

    @Option(help: ArgumentHelp("Who may read it, e.g. biometry-current-set,device-passcode or biometry-any+app-password.", valueName: "flags"))
    var access: String?

    @Option(help: "When it may be read and whether it may be exported.")
    var accessibility = AccessibilityArgument(.whenUnlocked)

    @Option(help: "A label for people.")
    var label: String?

    @Flag(help: "Replace the value of an existing item (which asks as `get` does).")
    var replace = false

    @OptionGroup(title: "Generating the value") var generation: GenerateOptions

    /// Catches a value typed after NAME so it can be refused with a reason
    /// instead of ArgumentParser's generic "unexpected argument".
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var stray: [String] = []

    func validate() throws {
        if let unknown = stray.first(where: { $0.hasPrefix("-") }) {
            throw ValidationError("unknown option \(unknown)")
        }
        if !stray.isEmpty {
            throw ValidationError("put takes the value from standard input, never from the command line (ps and shell history would show it); nothing was stored")
        }
        if let access { _ = try AccessArgument.parse(access) }
        if generation.generate { return }
        try options.requireStandardInputFree(for: "the value")
    }

    func run() async throws {
        try await reporting(json: false) {
            let control = try access.map(AccessArgument.parse) ?? Vault.noAccessControl
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let value = try await generation.generate ? generation.value() : readValue()
            guard !value.isEmpty else { throw CommandFailure(status: .usage, message: "the value is empty; nothing was stored") }
            let context = options.context(machine)
            try await options.supplyPassword(for: control, machine: machine, on: context)
            try await Self.store(value, service: item.service, name: item.name, label: label, accessibility: accessibility.value,
                                 accessControl: control, replace: replace, in: vault, context: context, machine: machine)
        }
    }

    /// Stores `value` as NAME in `service`: with `replace`, over the item
    /// there (which keeps its access control); otherwise a new item, or exit 1
    /// when one exists. A new item's access control is warned about when the
    /// machine cannot satisfy it. `put` and `otp add` store alike.
    static func store(
        _ value: SecretBytes, service: String, name: String, label: String?, accessibility: ItemAccessibility,
        accessControl control: AccessControl, replace: Bool, in vault: Vault, context: AuthenticationContext, machine: Machine
    ) async throws {
        if replace, try await vault.items.contains(service: service, account: name) {
            try await vault.items.update(value, service: service, account: name, operationPrompt: "Replace \(name)", context: context)
            return
        }
        do throws(VaultError) {
            try await vault.items.add(value, service: service, account: name, label: label,
                                accessibility: accessibility, accessControl: control, context: context)
        } catch {
            guard error.status == .duplicateItem else { throw error }
            throw CommandFailure(status: .failure, message: "\(name) already exists in service \(service); use --replace")
        }
        AccessWarning.report(await AccessWarning.text(for: control, what: name, machine: machine))
    }

    /// Standard input as is; asked on the terminal, masked, when standard
    /// input is the terminal (typing a secret visibly is never right).
    private func readValue() async throws -> SecretBytes {
        if SecretReader.isTerminal(0) {
            return try await options.ask("Value of \(item.name)", kind: .applicationPassword, secretName: "the value to store", hint: "pipe it to standard input")
        }
        return try SecretReader.read(descriptor: 0, what: "the value", stripNewline: false)
    }
}
