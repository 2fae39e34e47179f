import ArgumentParser
import Sesame

/// `sesame key ls`: the keys' attributes and public keys. Never prompts for a key.
struct KeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the keys: service, name, algorithm, access and fingerprint; public parts only."
    )

    @OptionGroup var options: VaultOpeningOptions

    @Option(help: "Only this service's keys.")
    var service: String?

    @Flag(help: "Print a JSON array of keys.")
    var json = false

    func run() async throws {
        try await reporting(json: json) {
            let vault = try await options.open(try options.machine())
            let keys = try await vault.keys.list(service: service)
            let entries = try keys.map(KeyDocument.init)
            if json {
                print(JSONOutput.encode(entries))
                return
            }
            let rows = zip(entries, keys).map { entry, key in
                // Columns only for a key that has them, so that existing readers of five columns keep working.
                let destinations = key.constraints.destinations.map(KeyDestinationDocument.spelled)
                let extra = (entry.noForwarding ? ["no-forwarding"] : []) + (entry.allowSHA1 ? ["allow-sha1"] : [])
                    + (destinations.isEmpty ? [] : ["to=" + destinations.joined(separator: ",")])
                return ([entry.service, entry.name, entry.algorithm, entry.access, entry.fingerprint] + extra).map { $0.escapingControlCharacters() }
            }
            ListCommand.printRows(rows, header: ["SERVICE", "NAME", "ALGORITHM", "ACCESS", "FINGERPRINT"], extra: "CONSTRAINTS")
        }
    }
}
