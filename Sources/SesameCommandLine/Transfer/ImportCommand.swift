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

/// `sesame import FILE`: adds the items of an export file; existing items are never overwritten (SPEC D2).
/// `sesame import --from-secret-service`: copies the items of the Secret Service provider on the session bus.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        _superCommandName: SesameCommand.name,
        abstract: "Add the items of an export file to the vault; items that already exist are kept as they are.",
        discussion: """
            The passphrase is typed on the terminal or read from --passphrase-fd N; FILE `-` reads the export \
            from standard input. Standard error lists what was added, what was skipped because an item of the \
            same service and name exists (a conflict: the vault's item is kept), and anything else skipped, \
            with the reason. A wrong passphrase exits 4; a damaged or altered file exits 9 and imports nothing.

            With --from-secret-service instead of FILE, every item of the Secret Service provider running on the session \
            bus (gnome-keyring, KWallet's bridge, KeePassXC) is copied into the vault's Secret Service collections, with \
            its label, attributes and dates: a collection of the same label (created when missing; the provider's default \
            collection becomes the vault's). Nothing is deleted or changed on the provider. An item equal by attributes to \
            one copied before is replaced, so importing twice adds nothing. Locked items are unlocked through the \
            provider's own prompt, or skipped with --no-interaction; standard error (or --json) reports, per collection, \
            what was copied and skipped.
            """
    )

    @Argument(help: ArgumentHelp("The export file, or - for standard input.", valueName: "file"))
    var file: String?

    @Flag(help: "Copy the items of the Secret Service provider on the session bus instead of reading a file.")
    var fromSecretService = false

    @Option(help: ArgumentHelp("With --from-secret-service: the session bus address; $DBUS_SESSION_BUS_ADDRESS by default.", valueName: "address"))
    var busAddress: String?

    @OptionGroup var options: VaultOptions
    @OptionGroup var passphrase: PassphraseOptions

    /// Far larger than any real export; stops a wrong path (a huge file)
    /// from eating all memory. Standard input stops at ``SecretReader/limit``.
    static let limit = 256 << 20

    @Flag(help: "Print the report as JSON on standard output ({\"transferred\", \"kept\", \"skipped\"}; with --from-secret-service {\"copied\", \"replaced\", \"skipped\", \"collections\"}).")
    var json = false

    func validate() throws {
        if fromSecretService {
            if file != nil { throw ValidationError("give FILE or --from-secret-service, not both") }
            if passphrase.passphraseFD != nil { throw ValidationError("--passphrase-fd is for an export file, not --from-secret-service") }
            return
        }
        if busAddress != nil { throw ValidationError("--bus-address goes with --from-secret-service") }
        guard let file else { throw ValidationError("give FILE (an export) or --from-secret-service") }
        if file.isEmpty { throw ValidationError("FILE must not be empty") }
        try passphrase.requireDistinct(from: options, dataOnStandardInput: file == "-")
        if file == "-", options.passcodeFD == 0 || options.passwordFD == 0 {
            throw ValidationError("standard input carries the export file; pass secrets on other descriptors")
        }
    }

    func run() async throws {
        if fromSecretService {
            try await reporting(json: json) {
                let environment = ProcessInfo.processInfo.environment
                guard let address = busAddress ?? environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
                    throw CommandFailure(status: .notAvailable, message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set (or pass --bus-address)")
                }
                #if os(Linux)
                try await SecretServiceImport(options: options, address: address, json: json).run()
                #else
                throw CommandFailure(status: .notAvailable, message: "the Secret Service is Linux's; there is none to import from here")
                #endif
            }
            return
        }
        try await reporting(json: json) {
            let bytes = try readFile(file ?? "-")
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            if options.passwordFD != nil {
                _ = context.setCredential(try await options.applicationPassword(machine), type: .applicationPassword)
            }
            let secret = try await passphrase.read(options: options, confirm: false)
            let report = try await vault.importItems(from: bytes, passphrase: secret, context: context)
            var conflicts: [TransferReport.Skipped] = []
            var others: [TransferReport.Skipped] = []
            for item in report.skipped {
                // Skipped and present: the vault's own item, kept as it was.
                if try await vault.items.contains(service: item.service, account: item.account) {
                    conflicts.append(item)
                } else {
                    others.append(item)
                }
            }
            var lines = ["Added \(report.transferred) item\(report.transferred == 1 ? "" : "s")."]
            if !conflicts.isEmpty {
                lines.append("Kept \(conflicts.count) existing item\(conflicts.count == 1 ? "" : "s") (conflicts, not overwritten):")
                lines += conflicts.map { "  \($0.service)/\($0.account)" }
            }
            if !others.isEmpty {
                lines.append("Skipped \(others.count) item\(others.count == 1 ? "" : "s"):")
                lines += others.map { "  \($0.service)/\($0.account): \($0.reason)" }
            }
            if json {
                print(JSONOutput.encode(TransferDocument(transferred: report.transferred, kept: TransferDocument.items(conflicts, reasons: false),
                                                         skipped: TransferDocument.items(others))))
            } else {
                // SPEC D9: the file's names are shown escaped.
                StandardError.write(lines.map { $0.escapingControlCharacters() }.joined(separator: "\n") + "\n")
            }
        }
    }

    private func readFile(_ file: String) throws(CommandFailure) -> [UInt8] {
        if file == "-" {
            guard !SecretReader.isTerminal(0) else {
                throw CommandFailure(status: .usage, message: "the export is binary; redirect standard input from the file, or give FILE")
            }
            return try SecretReader.read(descriptor: 0, what: "the export", stripNewline: false).withUnsafeBytes { Array($0) }
        }
        let path = PrivateFile.absolute(file)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CommandFailure(status: .failure, message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw CommandFailure(status: .usage, message: "\(path) is not a regular file") }
        guard info.st_size <= Self.limit else {
            throw CommandFailure(status: .damaged, message: "\(path) is larger than \(Self.limit >> 20) MiB; it is not a Sesame export")
        }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CommandFailure(status: .failure, message: "cannot read \(path): \(error)")
        }
    }
}
