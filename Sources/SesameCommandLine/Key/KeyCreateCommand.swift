import ArgumentParser
import Sesame

/// `sesame key create NAME --algorithm A`: a new key pair inside the vault;
/// prints its public key.
struct KeyCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a key pair in the vault and print its public key.",
        discussion: """
            The private key is made inside the vault and never leaves it. --access flags: \
            \(AccessArgument.names.map(\.0).joined(separator: ", ")), joined with `,` (any one) or `+` (all), or none.
            """
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOptions
    @OptionGroup var protection: KeyProtectionOptions

    @Option(help: "ed25519, p256, p384, p521, rsa-2048, rsa-3072 or rsa-4096 to sign; x25519 or p256-agreement to decrypt and agree on secrets.")
    var algorithm: AlgorithmArgument

    func run() async throws {
        try await reporting(json: protection.json) {
            let control = try protection.accessControl()
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            try await options.supplyPassword(for: control, machine: machine, on: context)
            let created: VaultKey
            do {
                created = try await vault.keys.create(service: key.service, name: key.name, algorithm: algorithm.value, label: protection.label,
                                                    accessibility: protection.accessibility.value, accessControl: control,
                                                    constraints: protection.constraints, context: context)
            } catch VaultError.duplicateItem {
                throw KeyProtectionOptions.duplicate(key)
            }
            let warning = await AccessWarning.text(for: control, what: "key \(key.name)", machine: machine)
            AccessWarning.report(warning)
            try protection.show(created, warning: warning)
        }
    }
}
