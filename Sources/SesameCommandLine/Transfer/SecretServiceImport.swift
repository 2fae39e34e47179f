#if os(Linux)
import Sesame
import SesameLinux
import SesameSecretService

/// `sesame import --from-secret-service`: copies every item of the Secret
/// Service provider on the session bus (gnome-keyring, KWallet's bridge,
/// KeePassXC) into the vault's Secret Service view. The source is only read.
struct SecretServiceImport {
    /// The `--json` report.
    struct Document: Encodable {
        struct Skipped: Encodable {
            var label: String
            var path: String
            var reason: String
        }

        struct Collection: Encodable {
            var label: String
            var path: String
            /// Items written to the vault (`replaced` of them took the place of an equal one).
            var copied: Int
            var replaced: Int
            var skipped: [Skipped]
        }

        var copied: Int
        var replaced: Int
        var skipped: Int
        var collections: [Collection]
    }

    var options: VaultOptions
    var address: String
    var json: Bool

    func run() async throws {
        let machine = try options.machine()
        let vault = try await options.open(machine)
        let context = options.context(machine)
        if options.passwordFD != nil {
            _ = context.setCredential(try await options.applicationPassword(machine), type: .applicationPassword)
        }
        let source: [SecretServiceSourceCollection]
        do {
            source = try await SecretServiceSource.read(address: address, interactive: !options.noInteraction)
        } catch {
            throw CommandFailure(status: .notAvailable, message: "no Secret Service provider answered on the session bus: \(error.description.escapingControlCharacters())")
        }
        // Sesame serving this very vault: its collection paths end in the
        // vault's own collection identifiers (64 random bits each), so a
        // match cannot be a coincidence. Importing would only replace every
        // item by itself; another Sesame vault on the bus remains importable.
        let ours = Set(try await vault.collections().map(\.id))
        if source.contains(where: { ours.contains($0.identifier) }) {
            throw CommandFailure(status: .usage, message: """
                the Secret Service on the bus is Sesame serving this vault; stop `sesame secret-service`, \
                start the provider to import from (gnome-keyring, KeePassXC…), and run the import again
                """)
        }
        var document = Document(copied: 0, replaced: 0, skipped: 0, collections: [])
        for collection in source {
            document.collections.append(try await copy(collection, into: vault, context: context))
        }
        document.copied = document.collections.reduce(0) { $0 + $1.copied }
        document.replaced = document.collections.reduce(0) { $0 + $1.replaced }
        document.skipped = document.collections.reduce(0) { $0 + $1.skipped.count }
        if json {
            print(JSONOutput.encode(document))
        } else {
            StandardError.write(Self.lines(document).joined(separator: "\n") + "\n")
        }
    }

    /// The vault's collection for `collection`: the default one for the
    /// source's `default` alias, else the first of the same label; created
    /// when missing.
    private func target(for collection: SecretServiceSourceCollection, in vault: Vault) async throws(VaultError) -> String {
        if collection.isDefault {
            if let id = try await vault.alias(named: "default") { return id }
            return try await vault.createCollection(label: collection.label, alias: "default").id
        }
        if let existing = try await vault.collections().first(where: { $0.label == collection.label }) { return existing.id }
        return try await vault.createCollection(label: collection.label).id
    }

    private func copy(_ collection: SecretServiceSourceCollection, into vault: Vault, context: AuthenticationContext) async throws -> Document.Collection {
        var report = Document.Collection(label: collection.label, path: collection.path, copied: 0, replaced: 0,
                                         skipped: collection.skipped.map { .init(label: $0.label, path: $0.path, reason: $0.reason) })
        let target: String
        do throws(VaultError) {
            target = try await self.target(for: collection, in: vault)
        } catch {
            // A label the vault refuses (a control character): every item stays behind, said so.
            report.skipped += collection.items.map { .init(label: $0.label, path: $0.path, reason: "its collection was not created: \(error.message)") }
            return report
        }
        for item in collection.items {
            do throws(VaultError) {
                let existing = try await vault.searchItems(attributes: item.attributes, inCollection: target)
                    .contains { $0.attributes == item.attributes }
                // replacing: a second import takes the place of the first copy instead of adding another.
                _ = try await vault.createItem(
                    in: target, label: item.label, attributes: item.attributes, contentType: item.contentType, value: item.secret,
                    replacing: true, context: context, dates: (Double(item.created), Double(item.modified)))
                report.copied += 1
                if existing { report.replaced += 1 }
            } catch {
                report.skipped.append(.init(label: item.label, path: item.path, reason: error.message))
            }
        }
        return report
    }

    /// The text report; outside text (labels, paths, reasons quoting them) escaped (SPEC D9).
    static func lines(_ document: Document) -> [String] {
        func plural(_ count: Int) -> String { "\(count) item\(count == 1 ? "" : "s")" }
        var lines = ["Copied \(plural(document.copied)) (\(document.replaced) replacing an earlier copy); skipped \(plural(document.skipped))."]
        for collection in document.collections {
            lines.append("Collection \"\(collection.label.escapingControlCharacters())\": copied \(collection.copied)"
                         + " (\(collection.replaced) replaced), skipped \(collection.skipped.count)")
            lines += collection.skipped.map {
                "  \"\($0.label.escapingControlCharacters())\" (\($0.path.escapingControlCharacters())): \($0.reason.escapingControlCharacters())"
            }
        }
        return lines
    }
}
#endif
