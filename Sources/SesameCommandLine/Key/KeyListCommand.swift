import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// `sesame key ls`: the keys' attributes and public keys. Never prompts for a key.
struct KeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the keys: service, name, algorithm, access and fingerprint; public parts only."
    )

    @OptionGroup var options: VaultOptions

    @Option(help: "Only this service's keys.")
    var service: String?

    @Flag(help: "Print a JSON array of keys.")
    var json = false

    /// One key in `--json`; the spellings are those of `key create`'s options.
    private struct Entry: Encodable {
        var service: String
        var name: String
        var label: String?
        var algorithm: String
        var access: String
        var accessibility: String
        var fingerprint: String
        /// OpenSSH for signing keys, PEM for the others.
        var publicKey: String
        var created: Date
    }

    func run() async throws {
        try await reporting(json: json) {
            let vault = try await options.open(try options.machine())
            let entries = try await vault.keys(service: service).map { key in
                Entry(service: key.service, name: key.name, label: key.label, algorithm: key.algorithm.rawValue,
                      access: AccessArgument.describe(key.accessControl), accessibility: AccessibilityArgument.name(key.accessibility),
                      fingerprint: key.publicKey.fingerprint,
                      publicKey: String(decoding: try PublicKeyFormat.standard(for: key.algorithm).render(key), as: UTF8.self)
                        .trimmingCharacters(in: .newlines),
                      created: key.created)
            }
            if json {
                print(JSONOutput.encode(entries))
                return
            }
            for entry in entries {
                print([entry.service, entry.name, entry.algorithm, entry.access, entry.fingerprint].joined(separator: "\t"))
            }
        }
    }
}
