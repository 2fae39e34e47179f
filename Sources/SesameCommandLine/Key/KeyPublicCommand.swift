import ArgumentParser
import Sesame

/// `sesame key public NAME`: the public key. Never prompts for the key.
struct KeyPublicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "public",
        abstract: "Print a key's public key (never prompts for the key)."
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOptions

    @Option(help: "openssh (signing keys' default; `ssh-keygen -l -f` reads it), pem (SubjectPublicKeyInfo; the others' default) or raw.")
    var format: PublicKeyFormat?

    func run() async throws {
        try await reporting(json: false) {
            let vault = try await options.open(try options.machine())
            let found = try await key.find(in: vault)
            try StandardOutput.write(try (format ?? .standard(for: found.algorithm)).render(found))
        }
    }
}
