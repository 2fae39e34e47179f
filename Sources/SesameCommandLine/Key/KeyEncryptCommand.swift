import ArgumentParser
import Sesame

/// `sesame key encrypt NAME < PLAINTEXT > CIPHERTEXT`: to the key's public
/// key, so only `sesame key decrypt NAME` opens it. Never prompts for the key.
struct KeyEncryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt standard input to an x25519 or p256-agreement key's public key (never prompts for the key)."
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOpeningOptions

    @Flag(help: "Print {\"ciphertext\": \"base64\"} instead of the bytes.")
    var json = false

    func validate() throws {
        if options.passcodeFD == 0 {
            throw ValidationError("standard input carries the plaintext; pass the passcode on another descriptor")
        }
    }

    func run() async throws {
        try await reporting(json: json) {
            let vault = try await options.open(try options.machine())
            let found = try await key.find(in: vault)
            let plaintext = try SecretReader.read(descriptor: 0, what: "the plaintext", stripNewline: false)
            try BinaryDocument.write(try plaintext.withUnsafeBytes { bytes throws(VaultError) in try found.publicKey.encrypt(bytes) },
                                    field: "ciphertext", json: json)
        }
    }
}
