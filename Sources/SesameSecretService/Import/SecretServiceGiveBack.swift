#if os(Linux)
import Crypto
import Sesame
import SesameLinux
import Synchronization

/// Gives back to another Secret Service provider (gnome-keyring) the items
/// of the vault's Secret Service view that it lacks or holds otherwise:
/// those made or changed while Sesame served. The reverse of
/// ``SecretServiceImporter``, for `sesame setup secret-service --undo`.
///
/// Which items changed is decided by content, never by dates: an item the
/// provider holds with equal attributes (libsecret's generic schema aside,
/// ``SecretServiceImportAction/withoutGenericSchema(_:)``), the same label
/// and the same secret is left alone. A changed one is written with the
/// provider's own attributes, so it takes the old one's place.
///
/// Nothing protected is lowered: an item under an access control with a
/// user factor stays in the vault only (the provider would keep it open),
/// and another app's item is read only with the owner's word (SPEC D11, D13).
package actor SecretServiceGiveBack {
    let vault: Vault
    let context: AuthenticationContext

    /// Reads the vault with `context`: the app asking, and a presenter to ask the owner with.
    package init(vault: Vault, context: AuthenticationContext) {
        self.vault = vault
        self.context = context
    }

    /// One provider item as compared: its attributes as the provider keeps
    /// them, and a digest of its label, content type and secret.
    private struct Held: Sendable {
        var attributes: [String: String]
        var digest: SHA256.Digest
    }

    /// Compares and writes.
    ///
    /// - Parameters:
    ///   - address: The session bus the provider serves on.
    ///   - interactive: Whether the provider may prompt to unlock its collections.
    /// - Returns: What was given back, left, or not given back and why.
    /// - Throws: ``DBusError`` when the provider cannot be read; ``VaultError`` when the vault cannot.
    package func run(address: String, interactive: Bool) async throws -> SecretServiceGiveBackReport {
        let held = HeldItems()
        _ = try await SecretServiceSource.read(address: address, interactive: interactive) { collection, item in
            let entry = Held(attributes: item.attributes, digest: Self.digest(label: item.label, contentType: item.contentType, secret: item.secret))
            let attributes = SecretServiceImportAction.withoutGenericSchema(item.attributes)
            held.items.withLock { $0[Self.key(collection.isDefault, collection.label), default: [:]][attributes, default: []].append(entry) }
        }
        let provider = held.items.withLock { $0 }
        var report = SecretServiceGiveBackReport()
        let defaultID = try await vault.collections.alias(named: VaultSecretServiceStore.defaultAlias)
        for collection in try await vault.collections.list() {
            let isDefault = collection.id == defaultID
            let known = provider[Self.key(isDefault, collection.label)] ?? [:]
            var batch: [SecretServiceDestination.Item] = []
            for item in try await vault.collections.items(inCollection: collection.id) {
                let shown = { (reason: String?) in SecretServiceGiveBackReport.Item(collection: collection.label, label: item.label, reason: reason) }
                guard item.accessControl.userFactors.isEmpty else {
                    report.notGivenBack.append(shown("protected in the vault (\(item.accessControl)); the provider would keep it open to every program"))
                    continue
                }
                let secret: SecretBytes
                do throws(VaultError) {
                    secret = try await vault.collections.secret(ofItem: item.id, inCollection: collection.id,
                                                                operationPrompt: "give it back to the Secret Service provider", context: context)
                } catch {
                    report.notGivenBack.append(shown(error.message))
                    continue
                }
                let candidates = known[SecretServiceImportAction.withoutGenericSchema(item.attributes)] ?? []
                if candidates.contains(where: { $0.digest == Self.digest(label: item.label, contentType: item.contentType, secret: secret) }) {
                    report.unchanged += 1
                    continue
                }
                batch.append(.init(label: item.label, attributes: candidates.first?.attributes ?? item.attributes,
                                   contentType: item.contentType, secret: secret))
            }
            guard !batch.isEmpty else { continue }
            let results: [DBusError?]
            do throws(DBusError) {
                results = try await SecretServiceDestination.store(batch, inCollectionLabelled: collection.label, isDefault: isDefault,
                                                                   address: address, interactive: interactive)
            } catch {
                report.notGivenBack += batch.map { .init(collection: collection.label, label: $0.label, reason: error.description) }
                continue
            }
            for (item, failure) in zip(batch, results) {
                if let failure {
                    report.notGivenBack.append(.init(collection: collection.label, label: item.label, reason: "the provider refused it: \(failure.description)"))
                } else {
                    report.givenBack.append(.init(collection: collection.label, label: item.label, reason: nil))
                }
            }
        }
        return report
    }

    /// The provider's items by collection and compared attributes, filled on the bus's thread.
    private final class HeldItems: Sendable {
        let items = Mutex<[String: [[String: String]: [Held]]]>([:])
    }

    private static func key(_ isDefault: Bool, _ label: String) -> String {
        isDefault ? "default" : "label:" + label
    }

    private static func digest(label: String, contentType: String, secret: SecretBytes) -> SHA256.Digest {
        var hash = SHA256()
        // Lengths first: no label and content type can run into each other.
        for part in [label, contentType] {
            hash.update(data: Array("\(part.utf8.count):".utf8) + Array(part.utf8))
        }
        secret.withUnsafeBytes { hash.update(bufferPointer: $0) }
        return hash.finalize()
    }
}
#endif
