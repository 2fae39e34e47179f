import ArgumentParser
import Sesame
import SesamePasskeys

/// `sesame passkey ls`: every passkey's relying party, user and counter.
/// Never prompts for a key.
struct PasskeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the passkeys: id, relying party, user, algorithm, kind and signatures; never a key."
    )

    @OptionGroup var options: VaultOpeningOptions

    @Option(name: .customLong("relying-party"), help: "Only this relying party's passkeys (example.com).")
    var relyingParty: String?

    @Flag(help: "Print a JSON array of passkeys.")
    var json = false

    func run() async throws {
        try await reporting(json: json) {
            let store = VaultPasskeyStore(vault: try await options.open(try options.machine()))
            let credentials = try await store.allCredentials().filter { relyingParty == nil || $0.creation.relyingPartyID == relyingParty }
            let documents = credentials.map(PasskeyDocument.init)
            if json {
                print(JSONOutput.encode(documents))
                return
            }
            let rows = documents.map { entry in
                // Names come from websites: shown with control characters escaped.
                [entry.shortID, entry.relyingParty, entry.userName ?? "-", entry.algorithm,
                 entry.discoverable ? "discoverable" : "server-side", "signatures=\(entry.signatureCount)"]
                    .map { $0.escapingControlCharacters() }
            }
            ListCommand.printRows(rows, header: ["ID", "RELYING PARTY", "USER", "ALGORITHM", "KIND", "SIGNATURES"])
        }
    }
}
