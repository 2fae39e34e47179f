import ArgumentParser
import Sesame

/// `sesame key ls`: the keys' attributes and public keys. Never prompts for a key.
struct KeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the keys: service, name, algorithm, access and fingerprint; public parts only."
    )

    @OptionGroup var options: VaultOptions

    @Option(help: "Only this service's keys.")
    var service: String?

    @Flag(help: "Print a JSON array of keys.")
    var json = false

    func run() async throws {
        try await reporting(json: json) {
            let vault = try await options.open(try options.machine())
            let entries = try await vault.keys(service: service).map(KeyDocument.init)
            if json {
                print(JSONOutput.encode(entries))
                return
            }
            for entry in entries {
                // A sixth column only for a key that has it, so that existing readers of five columns keep working.
                print(([entry.service, entry.name, entry.algorithm, entry.access, entry.fingerprint] + (entry.noForwarding ? ["no-forwarding"] : []))
                    .map { $0.escapingControlCharacters() }.joined(separator: "\t"))
            }
        }
    }
}
