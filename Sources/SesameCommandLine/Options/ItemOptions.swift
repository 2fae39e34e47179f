import ArgumentParser
import Sesame

/// The item a command is about: NAME within a service.
struct ItemOptions: ParsableArguments {
    @Argument(help: "The item's name (its account within the service).")
    var name: String

    @Option(help: "The service the item belongs to.")
    var service = ItemOptions.defaultService

    static let defaultService = "sesame"

    func validate() throws {
        if name.isEmpty { throw ValidationError("NAME must not be empty") }
        if service.isEmpty { throw ValidationError("--service must not be empty") }
    }

    /// The item's attributes, or exit 3. Never prompts, decrypts nothing.
    func find(in vault: Vault) async throws -> VaultItem {
        do throws(VaultError) {
            return try await vault.items.attributes(service: service, account: name)
        } catch where error.status == .itemNotFound {
            throw CommandFailure(status: .notFound, message: "no item \(name) in service \(service)")
        } catch {
            throw CommandFailure(error)
        }
    }
}
