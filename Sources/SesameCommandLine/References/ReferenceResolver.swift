import Sesame
import SesameSecretsInUse

/// Reads the items that `sesame://` references (and `run --env`) name, for
/// `read`, `inject` and `run`: every item is checked to exist before anything
/// is asked, the application password is read once, and one context serves
/// every read, so items that share an access control are opened with one
/// prompt (the context keeps the authorisation, SPEC A12 and D3).
struct ReferenceResolver {
    let options: VaultOptions
    let machine: Machine
    let vault: Vault

    /// Opens the vault (which may ask for its passcode).
    static func open(_ options: VaultOptions) async throws -> ReferenceResolver {
        let machine = try options.machine()
        return ReferenceResolver(options: options, machine: machine, vault: try await options.open(machine))
    }

    /// Fails with exit 3, naming the first missing item, before any prompt.
    ///
    /// - Parameter consequence: What did not happen, e.g. "the command was not run".
    func requireExisting(_ references: [SecretReference], consequence: String) async throws {
        for reference in references {
            guard try await vault.contains(service: reference.service, account: reference.name) else {
                throw CommandFailure(status: .notFound, message: "no item \(reference.name) in service \(reference.service); \(consequence)")
            }
        }
    }

    /// The values, in the order given (duplicates read once).
    ///
    /// The prompt of each group of items that share an access control names
    /// all of them, since the one prompt opens them all.
    ///
    /// - Parameters:
    ///   - references: The items to read; checked with ``requireExisting(_:consequence:)`` first.
    ///   - reason: The prompt text for a list of item names.
    func read(_ references: [SecretReference], reason: ([String]) -> String) async throws -> [SecretReference: SecretBytes] {
        var unique: [SecretReference] = []
        for reference in references where !unique.contains(reference) { unique.append(reference) }

        // Attributes never prompt. A row that cannot be read fails its read
        // below with its own error, so it simply joins no group here.
        var controls: [SecretReference: AccessControl] = [:]
        for reference in unique {
            controls[reference] = try? await vault.attributes(service: reference.service, account: reference.name).accessControl
        }
        let context = options.context(machine)
        // A descriptor can be read once: the password serves every item that needs it.
        if controls.values.contains(where: { $0.flags.contains(.applicationPassword) })
            || (options.passwordFD != nil && controls.count < unique.count) {
            _ = context.setCredential(try await options.applicationPassword(machine), type: .applicationPassword)
        }

        var values: [SecretReference: SecretBytes] = [:]
        for reference in unique {
            let group = unique.filter { controls[$0] != nil && controls[$0] == controls[reference] }
            let names = group.isEmpty ? [reference.name] : group.map(\.name)
            do throws(VaultError) {
                values[reference] = try await vault.read(service: reference.service, account: reference.name,
                                                         operationPrompt: reason(names), context: context)
            } catch where error.status == .userCanceled && machine.descriptorPresenter?.wasRejected == true {
                throw CommandFailure(status: .authenticationFailed, message: "the login password from --password-fd was not accepted")
            } catch where error.status == .itemNotFound {
                throw CommandFailure(status: .notFound, message: "no item \(reference.name) in service \(reference.service)")
            } catch {
                throw CommandFailure(error)
            }
        }
        return values
    }
}
