import ArgumentParser
import Sesame

/// `sesame key decrypt NAME < CIPHERTEXT > PLAINTEXT`.
struct KeyDecryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Decrypt standard input (ECIES) with an x25519 or p256-agreement key.",
        discussion: """
            The ciphertext is Apple's eciesEncryptionCofactorVariableIVX963SHA256AESGCM shape: the \
            sender's ephemeral public key, the AES-GCM ciphertext and its 16-byte tag (see sesame(1), key decrypt). \
            `sesame key encrypt` and SecKeyCreateEncryptedData make it. Exit 4 when it does not decrypt.
            """
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOptions

    @Flag(help: "Print {\"plaintext\": \"base64\"} instead of the bytes.")
    var json = false

    @Option(help: "Why you decrypt, shown on the prompt.")
    var reason: String?

    func validate() throws {
        try options.requireStandardInputFree(for: "the ciphertext")
    }

    func run() async throws {
        try await reporting(json: json) {
            let plaintext = try await key.use(options) { vault, found, context in
                let ciphertext = try SecretReader.read(descriptor: 0, what: "the ciphertext", stripNewline: false)
                return try await vault.keys.decrypt(ciphertext.withUnsafeBytes { Array($0) }, withKey: key.name, service: key.service,
                                               operationPrompt: reason ?? "Decrypt with \(key.name)", context: context)
            }
            try BinaryDocument.write(plaintext, field: "plaintext", json: json)
        }
    }
}
