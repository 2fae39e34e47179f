import ArgumentParser
import Sesame

/// `sesame key sign NAME < DATA > SIGNATURE`.
struct KeySignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign standard input; the signature goes to standard output.",
        discussion: """
            Ed25519: the 64-byte signature of the data (RFC 8032). P-256: ECDSA over the data's SHA-256, \
            DER by default (`openssl dgst -sha256 -verify` reads it), or r‖s with --format raw. \
            Standard input is read to its end (at most 16 MiB).
            """
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOptions

    @Flag(help: "Print {\"signature\": \"base64\"} instead of the bytes.")
    var json = false

    @Option(help: "raw or der (P-256 only; its default). Ed25519 signatures are raw.")
    var format: SignatureFormat?

    @Option(help: "Why you sign, shown on the prompt.")
    var reason: String?

    enum SignatureFormat: String, ExpressibleByArgument, CaseIterable {
        case raw, der
        var encoding: SignatureEncoding { self == .raw ? .raw : .der }
    }

    func validate() throws {
        try options.requireStandardInputFree(for: "the data")
    }

    func run() async throws {
        try await reporting(json: json) {
            let signature = try await key.use(options) { vault, found, context in
                let data = try SecretReader.read(descriptor: 0, what: "the data to sign", stripNewline: false)
                return try await vault.sign(data.withUnsafeBytes { Array($0) }, withKey: key.name, service: key.service,
                                            encoding: format?.encoding, operationPrompt: reason ?? "Sign with \(key.name)", context: context)
            }
            try BinaryDocument.write(signature, field: "signature", json: json)
        }
    }
}
