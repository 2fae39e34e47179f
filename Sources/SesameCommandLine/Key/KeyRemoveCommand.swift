import ArgumentParser
import Sesame

/// `sesame key rm NAME`: deletes a key. Like `rm`, it needs the vault
/// unlocked but not the key's own access control.
struct KeyRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a key; what it signed stays verifiable with its public key."
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOpeningOptions

    func run() async throws {
        try await reporting(json: false) {
            let vault = try await options.open(try options.machine())
            do {
                try await vault.keys.delete(service: key.service, name: key.name)
            } catch VaultError.itemNotFound {
                throw key.notFound
            }
        }
    }
}
