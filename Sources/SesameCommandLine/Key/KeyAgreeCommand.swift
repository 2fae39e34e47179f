#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import Sesame

/// `sesame key agree NAME --peer PEMFILE > SECRET`.
struct KeyAgreeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agree",
        abstract: "Write the raw shared secret with a peer's public key to standard output (never to a terminal).",
        discussion: """
            The X25519 output or the P-256 ECDH x-coordinate, 32 bytes, as `openssl pkeyutl -derive` \
            gives. Put it through a KDF before using it as a key.
            """
    )

    @OptionGroup var key: KeyOptions
    @OptionGroup var options: VaultOptions

    @Flag(help: "Print {\"sharedSecret\": \"base64\"} instead of the bytes.")
    var json = false

    @Option(help: ArgumentHelp("The peer's public key, PEM SubjectPublicKeyInfo (`openssl pkey -pubout`).", valueName: "pemfile"))
    var peer: String

    @Option(help: "Why, shown on the prompt.")
    var reason: String?

    func run() async throws {
        try await reporting(json: json) {
            if SecretReader.isTerminal(1) {
                throw CommandFailure(status: .usage, message: "standard output is a terminal; a shared secret is never shown: redirect it to a file or a pipe")
            }
            guard let data = FileManager.default.contents(atPath: peer) else {
                throw CommandFailure(status: .usage, message: "cannot read the peer key \(peer)")
            }
            let peerKey = try PublicKey(pemRepresentation: String(decoding: data, as: UTF8.self), purpose: .keyAgreement)
            let secret = try await key.use(options) { vault, found, context in
                try await vault.keys.sharedSecret(withKey: key.name, service: key.service, peer: peerKey,
                                             operationPrompt: reason ?? "Agree on a secret with \(key.name)", context: context)
            }
            try BinaryDocument.write(secret, field: "sharedSecret", json: json)
        }
    }
}
