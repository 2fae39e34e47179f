import Sesame
import SesameSecretsInUse
#if os(Linux)
import SesameLinux
#endif

/// `read`, `inject` and `run`'s wiring of the library's
/// `SecretReferenceResolver` (every item checked before any prompt, one
/// prompt per access control, SPEC A12 and D3): the vault opened from the
/// options, the application password from `--password-fd` or asked, and
/// the failures as exit codes.
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
        do throws(VaultError) {
            try await SecretReferenceResolver(vault: vault).requireExisting(references)
        } catch {
            guard error.status == .itemNotFound else { throw error }
            throw CommandFailure(status: .notFound, message: "\(error.message); \(consequence)")
        }
    }

    /// The values, in the order given (duplicates read once).
    ///
    /// - Parameters:
    ///   - references: The items to read; checked with ``requireExisting(_:consequence:)`` first.
    ///   - reason: The prompt text for a list of item names.
    func read(_ references: [SecretReference], reason: ([String]) -> String) async throws -> [SecretReference: SecretBytes] {
        try await SecretReferenceResolver(vault: vault).read(references, context: options.context(machine), reason: reason,
                                                             applicationPassword: applicationPassword(required:), failure: failure(_:))
    }

    /// A descriptor can be read once: the password serves every item that needs it.
    private func applicationPassword(required: Bool) async throws(CommandFailure) -> SecretBytes? {
        guard required || options.passwordFD != nil else { return nil }
        return try await options.applicationPassword(machine)
    }

    /// A read's failure as its exit code; a login password from
    /// `--password-fd` that PAM refused is an authentication failure.
    private func failure(_ error: VaultError) -> CommandFailure {
        if error.status == .userCanceled && machine.descriptorPresenter?.wasRejected == true {
            return CommandFailure(status: .authenticationFailed, message: "the login password from --password-fd was not accepted")
        }
        return CommandFailure(error)
    }
}
