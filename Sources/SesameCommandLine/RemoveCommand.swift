import ArgumentParser
import Sesame

/// `sesame rm NAME`: deletes an item. Like the keychain's delete, it needs
/// the vault unlocked but not the item's own access control.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        _superCommandName: SesameCommand.name,
        abstract: "Delete an item."
    )

    @OptionGroup var item: ItemOptions
    @OptionGroup var options: VaultOpeningOptions

    func run() async throws {
        try await reporting(json: false) {
            let vault = try await options.open(try options.machine())
            do {
                try await vault.items.delete(service: item.service, account: item.name)
            } catch VaultError.itemNotFound {
                throw CommandFailure(status: .notFound, message: "no item \(item.name) in service \(item.service)")
            }
        }
    }
}
