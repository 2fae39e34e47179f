#if os(Linux)
import Sesame
import SesameLinux
import SesameSecretService
import Dispatch
import Glibc

/// `sesame import --from-secret-service`: copies every item of the Secret
/// Service provider on the session bus (gnome-keyring, KWallet's bridge,
/// KeePassXC) into the vault's Secret Service view. The source is only read.
///
/// One item at a time: each is read, stored and released before the next,
/// so memory does not grow with the source. An item equal by attributes to
/// one in the vault replaces it only where that item is open to anyone (an
/// earlier copy); one the owner protected is kept as it is and reported
/// (SPEC D11: an import never lowers a protection), and the vault refuses a
/// replacement that would anyway.
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
            /// Items of the source not copied because the vault's equal item is protected: it is kept.
            var kept: [Skipped]
            var skipped: [Skipped]
        }

        var copied: Int
        var replaced: Int
        var kept: Int
        var skipped: Int
        var collections: [Collection]
    }

    var options: VaultOptions
    var address: String
    var json: Bool

    func run() async throws {
        Self.fixMemoryMapThreshold()
        let machine = try options.machine()
        let vault = try await options.open(machine)
        let context = options.context(machine)
        if options.passwordFD != nil {
            _ = context.setCredential(try await options.applicationPassword(machine), type: .applicationPassword)
        }
        // Sesame serving this very vault: its collection paths end in the
        // vault's own collection identifiers (64 random bits each), so a
        // match cannot be a coincidence. Importing would only replace every
        // item by itself; another Sesame vault on the bus remains importable.
        let ours = Set(try await vault.collections().map(\.id))
        let paths: [String]
        do {
            paths = try await SecretServiceSource.collectionPaths(address: address)
        } catch {
            throw CommandFailure(status: .notAvailable, message: "no Secret Service provider answered on the session bus: \(error.description.escapingControlCharacters())")
        }
        if paths.contains(where: { ours.contains(SecretServiceSourceCollection.identifier(ofPath: $0)) }) {
            throw CommandFailure(status: .usage, message: """
                the Secret Service on the bus is Sesame serving this vault; stop `sesame secret-service`, \
                start the provider to import from (gnome-keyring, KeePassXC…), and run the import again
                """)
        }
        let copier = Copier(vault: vault, context: context)
        let source: [SecretServiceSourceCollection]
        do {
            source = try await SecretServiceSource.read(address: address, interactive: !options.noInteraction) { collection, item in
                // The bus thread waits while the item is stored: one secret in memory at a time.
                let done = DispatchSemaphore(value: 0)
                Task {
                    await copier.copy(item, of: collection)
                    done.signal()
                }
                done.wait()
            }
        } catch {
            throw CommandFailure(status: .notAvailable, message: "no Secret Service provider answered on the session bus: \(error.description.escapingControlCharacters())")
        }
        var document = Document(copied: 0, replaced: 0, kept: 0, skipped: 0, collections: [])
        for collection in source {
            var report = await copier.report(for: collection)
            report.skipped = collection.skipped.map { .init(label: $0.label, path: $0.path, reason: $0.reason) } + report.skipped
            document.collections.append(report)
        }
        document.copied = document.collections.reduce(0) { $0 + $1.copied }
        document.replaced = document.collections.reduce(0) { $0 + $1.replaced }
        document.kept = document.collections.reduce(0) { $0 + $1.kept.count }
        document.skipped = document.collections.reduce(0) { $0 + $1.skipped.count }
        if json {
            print(JSONOutput.encode(document))
        } else {
            StandardError.write(Self.lines(document).joined(separator: "\n") + "\n")
        }
    }

    /// Secrets of megabytes are copied several times on their way (the bus
    /// message, the sealed row, SQLite's statement). glibc raises its mmap
    /// threshold past each large block freed and then keeps such blocks in
    /// its heaps, so every item would leave its copies behind (measured: five
    /// more 10 MiB items, +70 MiB at peak). A fixed threshold (glibc's
    /// `mallopt(M_MMAP_THRESHOLD, 256 KiB)`) maps them afresh and returns
    /// them: the peak then stays that of one item. Looked up at run time: not
    /// every C library has it, and then nothing changes.
    private static func fixMemoryMapThreshold() {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in glibc's <malloc.h>
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 256 << 10)
    }

    /// Stores the items as they arrive and keeps the tally per collection.
    private actor Copier {
        let vault: Vault
        let context: AuthenticationContext
        private var reports: [String: Document.Collection] = [:]
        private var targets: [String: Result<String, VaultError>] = [:]

        init(vault: Vault, context: AuthenticationContext) {
            self.vault = vault
            self.context = context
        }

        func report(for collection: SecretServiceSourceCollection) -> Document.Collection {
            reports[collection.path] ?? Document.Collection(label: collection.label, path: collection.path, copied: 0, replaced: 0, kept: [], skipped: [])
        }

        func copy(_ item: SecretServiceSourceItem, of collection: SecretServiceSourceCollection) async {
            var report = report(for: collection)
            defer { reports[collection.path] = report }
            let target: String
            switch await self.target(for: collection) {
            case .success(let id): target = id
            case .failure(let error):
                // A label the vault refuses (a control character): every item stays behind, said so.
                report.skipped.append(.init(label: item.label, path: item.path, reason: "its collection was not created: \(error.message)"))
                return
            }
            do throws(VaultError) {
                // Equal by attributes, the generic schema's name aside:
                // gnome-keyring reports `xdg:schema` for an item stored
                // without one once it has reloaded its file, and libsecret
                // means the same item either way.
                let attributes = SecretServiceImport.withoutGenericSchema(item.attributes)
                let existing = try await vault.searchItems(attributes: attributes, inCollection: target)
                    .filter { SecretServiceImport.withoutGenericSchema($0.attributes) == attributes }
                if let protected = existing.first(where: { !$0.accessControl.userFactors.isEmpty }) {
                    // SPEC D11: the owner's protected item stays as it is; the source's value is not copied.
                    report.kept.append(.init(label: item.label, path: item.path, reason: """
                        the vault's item "\(protected.label)" with these attributes is protected (\(protected.accessControl)); \
                        it was kept, not replaced
                        """))
                    return
                }
                // replacing: a second import takes the place of the first copy instead of adding another.
                _ = try await vault.createItem(
                    in: target, label: item.label, attributes: item.attributes, contentType: item.contentType, value: item.secret,
                    replacing: true, context: context, dates: (Double(item.created), Double(item.modified)))
                report.copied += 1
                if !existing.isEmpty { report.replaced += 1 }
            } catch where error.status == .interactionNotAllowed {
                // The vault's own refusal (SPEC D11): an item protected since the check above.
                report.kept.append(.init(label: item.label, path: item.path, reason: error.message))
            } catch {
                report.skipped.append(.init(label: item.label, path: item.path, reason: error.message))
            }
        }

        /// The vault's collection for `collection`: the default one for the
        /// source's `default` alias, else the first of the same label;
        /// created when missing. Decided once per collection.
        private func target(for collection: SecretServiceSourceCollection) async -> Result<String, VaultError> {
            if let known = targets[collection.path] { return known }
            let result: Result<String, VaultError>
            do throws(VaultError) {
                if collection.isDefault {
                    result = .success(try await vault.alias(
                        named: VaultSecretServiceStore.defaultAlias, creatingCollectionLabelled: VaultSecretServiceStore.defaultCollectionLabel))
                } else if let existing = try await vault.collections().first(where: { $0.label == collection.label }) {
                    result = .success(existing.id)
                } else {
                    result = .success(try await vault.createCollection(label: collection.label).id)
                }
            } catch {
                result = .failure(error)
            }
            targets[collection.path] = result
            return result
        }
    }

    /// `attributes` without `xdg:schema` when it names libsecret's generic
    /// schema, which is what an item stored without a schema has.
    static func withoutGenericSchema(_ attributes: [String: String]) -> [String: String] {
        attributes["xdg:schema"] == "org.freedesktop.Secret.Generic" ? attributes.filter { $0.key != "xdg:schema" } : attributes
    }

    /// The text report; outside text (labels, paths, reasons quoting them) escaped (SPEC D9).
    static func lines(_ document: Document) -> [String] {
        func plural(_ count: Int) -> String { "\(count) item\(count == 1 ? "" : "s")" }
        var lines = ["Copied \(plural(document.copied)) (\(document.replaced) replacing an earlier copy); kept \(plural(document.kept)) "
                     + "already protected in the vault; skipped \(plural(document.skipped))."]
        for collection in document.collections {
            lines.append("Collection \"\(collection.label.escapingControlCharacters())\": copied \(collection.copied)"
                         + " (\(collection.replaced) replaced), kept \(collection.kept.count), skipped \(collection.skipped.count)")
            lines += (collection.kept + collection.skipped).map {
                "  \"\($0.label.escapingControlCharacters())\" (\($0.path.escapingControlCharacters())): \($0.reason.escapingControlCharacters())"
            }
        }
        return lines
    }
}
#endif
