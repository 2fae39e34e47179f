import ArgumentParser
import Sesame

/// `sesame key import NAME < FILE`: an existing private key moves into the
/// vault; prints its public key.
struct KeyImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a private key (PEM or OpenSSH, unencrypted) from standard input.",
        discussion: """
            Reads PKCS#8 (`PRIVATE KEY`), SEC1 (`EC PRIVATE KEY`), PKCS#1 (`RSA PRIVATE KEY`) or OpenSSH \
            (`OPENSSH PRIVATE KEY`) Ed25519, X25519, P-256, P-384, P-521 and RSA (2048, 3072, 4096-bit) keys \
            from standard input, never from an argument. A P-256 key \
            imports for signing unless --algorithm p256-agreement. Delete the file afterwards: the vault \
            never gives the private key back.
            """
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOptions
    @OptionGroup var protection: KeyProtectionOptions

    @Option(help: "Required for a P-256 key-agreement key; otherwise checked against the file.")
    var algorithm: AlgorithmArgument?

    func validate() throws {
        try options.requireStandardInputFree(for: "the key")
    }

    func run() async throws {
        try await reporting(json: protection.json) {
            let control = try protection.accessControl()
            if SecretReader.isTerminal(0) {
                throw CommandFailure(status: .usage, message: "pipe the key file to standard input: sesame key import \(key.name) < FILE")
            }
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let privateKey = try SecretReader.read(descriptor: 0, what: "the private key", stripNewline: false)
            let context = options.context(machine)
            try await options.supplyPassword(for: control, machine: machine, on: context)
            let imported: VaultKey
            do {
                imported = try await vault.keys.import(privateKey, service: key.service, name: key.name, algorithm: algorithm?.value,
                                                     label: protection.label, accessibility: protection.accessibility.value, accessControl: control,
                                                     constraints: protection.constraints, context: context)
            } catch VaultError.duplicateItem {
                throw KeyProtectionOptions.duplicate(key)
            }
            let warning = await AccessWarning.text(for: control, what: "key \(key.name)", machine: machine)
            AccessWarning.report(warning)
            try protection.show(imported, warning: warning)
        }
    }
}
