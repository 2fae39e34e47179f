import ArgumentParser
import Sesame

/// `sesame export FILE`: every item that may leave the device, in a passphrase-encrypted file (SPEC D2).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        _superCommandName: SesameCommand.name,
        abstract: "Write the items that may leave this device to a passphrase-encrypted file.",
        discussion: """
            Asks for a passphrase, typed twice on the terminal or read from --passphrase-fd N, then for the \
            owner once (fingerprint, else the login password). ThisDeviceOnly items are never exported; they and \
            any item that could not be opened are listed on standard error. The file is created 0600 and an \
            existing file is kept unless --force is given. FILE `-` writes the (binary) export to standard \
            output, which must then not be a terminal.
            """
    )

    @Argument(help: ArgumentHelp("Where to write the export, or - for standard output.", valueName: "file"))
    var file: String

    @OptionGroup var options: VaultOptions
    @OptionGroup var passphrase: PassphraseOptions

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    @Flag(help: "Print the report as JSON on standard output ({\"transferred\", \"skipped\"}); needs FILE.")
    var json = false

    @Option(help: "Why you export, shown on the prompt.")
    var reason: String?

    /// Only for tests: the passphrase's scrypt cost (the standard one takes
    /// minutes in debug builds).
    @Option(name: .customLong("scrypt-log2n"), help: .hidden)
    var scryptLog2N: UInt8?

    func validate() throws {
        if file.isEmpty { throw ValidationError("FILE must not be empty") }
        if json, file == "-" { throw ValidationError("--json prints the report on standard output; write the export to a FILE") }
        try passphrase.requireDistinct(from: options, dataOnStandardInput: false)
        if let scryptLog2N, ScryptCost(log2N: scryptLog2N) == nil || scryptLog2N < 10 {
            throw ValidationError("--scrypt-log2n must be between 10 and 20")
        }
    }

    func run() async throws {
        try await reporting(json: json) {
            let destination = file == "-" ? nil : PrivateFile.absolute(file)
            if let destination {
                try PrivateFile.requireWritable(destination, replacing: force)
            } else if SecretReader.isTerminal(1) {
                throw CommandFailure(status: .usage, message: "the export is binary; redirect standard output to a file, or give FILE")
            }
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            if options.passwordFD != nil {
                // One application password for the app-password items; those
                // it does not open are reported as skipped.
                _ = context.setCredential(try await options.applicationPassword(machine), type: .applicationPassword)
            }
            let secret = try await passphrase.read(options: options, confirm: true)
            let cost = scryptLog2N.flatMap { ScryptCost(log2N: $0) } ?? .standard
            let report = try await vault.export(passphrase: secret, cost: cost, operationPrompt: reason ?? "Export the vault", context: context)
            if let destination {
                try PrivateFile.write(report.file, to: destination, replacing: force)
            } else {
                try StandardOutput.write(report.file)
            }
            // Told apart by the item's own class, not by the reason's wording.
            let local = Set(try await vault.items.list().filter(\.accessibility.isThisDeviceOnly).map { ItemKey(service: $0.service, account: $0.account) })
            var lines = ["Exported \(report.transferred) item\(report.transferred == 1 ? "" : "s") to \((destination ?? "standard output").escapingControlCharacters())."]
            // Each skipped item by name, as import lists them: a count alone
            // leaves the owner to guess which secrets the backup lacks.
            if !report.skipped.isEmpty {
                lines.append("Skipped \(report.skipped.count) item\(report.skipped.count == 1 ? "" : "s"):")
                lines += report.skipped.map { item in
                    let isLocal = local.contains(ItemKey(service: item.service, account: item.account))
                    let why = isLocal ? "ThisDeviceOnly: it never leaves this device" : item.reason
                    // SPEC D9: each name escaped on its own.
                    return "  \(item.service.escapingControlCharacters())/\(item.account.escapingControlCharacters()): \(why.escapingControlCharacters())"
                }
            }
            if json {
                print(JSONOutput.encode(TransferDocument(transferred: report.transferred, skipped: TransferDocument.items(report.skipped))))
            } else {
                StandardError.write(lines.joined(separator: "\n") + "\n")
            }
        }
    }
}

/// An item's identity within the vault.
private struct ItemKey: Hashable {
    var service: String
    var account: String
}
