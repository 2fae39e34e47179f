import ArgumentParser
import Sesame

/// `sesame key public NAME`: the public key. Never prompts for the key.
struct KeyPublicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "public",
        abstract: "Print a key's public key (never prompts for the key)."
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOpeningOptions

    @Option(help: "openssh (signing keys' default; `ssh-keygen -l -f` reads it), pem (SubjectPublicKeyInfo; the others' default) or raw.")
    var format: PublicKeyFormat?

    @Flag(help: "Print the key as `key ls --json` does.")
    var json = false

    func run() async throws {
        try await reporting(json: json) {
            let vault = try await options.open(try options.machine())
            let found = try await key.find(in: vault)
            if json { return print(JSONOutput.encode(try KeyDocument(found))) }
            try StandardOutput.write(try (format ?? .standard(for: found.algorithm)).render(found))
        }
    }
}
