import ArgumentParser
import Sesame

/// `sesame key sign NAME < DATA > SIGNATURE`.
struct KeySignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign standard input; the signature goes to standard output.",
        discussion: """
            Ed25519: the 64-byte signature of the data (RFC 8032). P-256: ECDSA over the data's SHA-256, \
            DER by default (`openssl dgst -sha256 -verify` reads it), or r‖s with --format raw; P-384 over \
            its SHA-384, P-521 over its SHA-512. RSA: PKCS#1 v1.5 over SHA-256 by default, or --rsa-scheme \
            rsa-sha2-512, rsa-pss-sha256, rsa-pss-sha512; ssh-rsa (PKCS#1 v1.5 over SHA-1) only with a key \
            created or imported with --allow-sha1, refused for any other. \
            Standard input is read to its end (at most 16 MiB).
            """
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOptions

    @Flag(help: "Print {\"signature\": \"base64\"} instead of the bytes.")
    var json = false

    @Option(help: "raw or der (ECDSA only; its default). Ed25519 and RSA signatures are raw.")
    var format: SignatureFormat?

    @Option(help: ArgumentHelp("RSA keys only: rsa-sha2-256 (the default), rsa-sha2-512, rsa-pss-sha256, rsa-pss-sha512, or ssh-rsa (SHA-1: a key marked --allow-sha1 only).", valueName: "scheme"))
    var rsaScheme: RSASchemeArgument?

    struct RSASchemeArgument: ExpressibleByArgument {
        var value: RSASignatureScheme
        init?(argument: String) {
            guard let value = RSASignatureScheme(rawValue: argument) else { return nil }
            self.value = value
        }
        static var allValueStrings: [String] { RSASignatureScheme.allCases.map(\.rawValue) }
    }

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
                // As OpenSSH's agent: a destination-restricted key signs SSH logins on a bound connection, nothing else (SPEC D8).
                guard found.constraints.destinations.isEmpty else {
                    throw VaultError(.notAvailable, "\(found.name) is restricted to SSH destinations (ssh-add -h): only the SSH agent uses it, to log in to those hosts")
                }
                let data = try SecretReader.read(descriptor: 0, what: "the data to sign", stripNewline: false)
                if let rsaScheme {
                    return try await vault.keys.sign(data.withUnsafeBytes { Array($0) }, withKey: key.name, service: key.service,
                                                rsaScheme: rsaScheme.value, operationPrompt: reason ?? "Sign with \(key.name)", context: context)
                }
                return try await vault.keys.sign(data.withUnsafeBytes { Array($0) }, withKey: key.name, service: key.service,
                                            encoding: format?.encoding, operationPrompt: reason ?? "Sign with \(key.name)", context: context)
            }
            try BinaryDocument.write(signature, field: "signature", json: json)
        }
    }
}
