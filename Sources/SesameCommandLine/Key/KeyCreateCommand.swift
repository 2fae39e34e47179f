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

    @Option(help: "ed25519 or p256 to sign; x25519 or p256-agreement to decrypt and agree on secrets.")
    var algorithm: AlgorithmArgument

    @Option(help: ArgumentHelp("Who may use it: flags as for `put`, or none.", valueName: "flags|none"))
    var access = KeyAccessArgument.standard

    @Option(help: "When it may be used; only this-device-only classes (a private key never leaves).")
    var accessibility = AccessibilityArgument(.whenUnlockedThisDeviceOnly)

    @Option(help: "A label for people; the comment of the OpenSSH public key.")
    var label: String?

    @Option(help: "How to print the public key: openssh (signing keys' default), pem (the others' default) or raw.")
    var format: PublicKeyFormat?

    func validate() throws {
        _ = try KeyAccessArgument.parse(access)
    }

    func run() async throws {
        try await reporting(json: false) {
            let control = try KeyAccessArgument.parse(access)
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            try await options.supplyPassword(for: control, machine: machine, on: context)
            let created: VaultKey
            do {
                created = try await vault.createKey(service: key.service, name: key.name, algorithm: algorithm.value, label: label,
                                                    accessibility: accessibility.value, accessControl: control, context: context)
            } catch VaultError.duplicateItem {
                throw CommandFailure(status: .failure, message: "a key \(key.name) already exists in service \(key.service); Sesame never replaces a key")
            }
            try StandardOutput.write(try (format ?? .standard(for: created.algorithm)).render(created))
        }
    }
}
