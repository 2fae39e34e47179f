import Sesame

/// Copies the items of another Secret Service provider into the vault's
/// Secret Service view as ``SecretServiceSource`` hands them over, and keeps
/// the tally per collection (`sesame import --from-secret-service`).
///
/// One item at a time: each is stored and released before the next, so
/// memory does not grow with the source. An item equal by attributes to one
/// in the vault replaces it only where that item is open to anyone (an
/// earlier copy); one the owner protected is kept as it is and reported
/// (SPEC D11: an import never lowers a protection,
/// ``SecretServiceImportAction``), and the vault refuses a replacement that
/// would anyway.
///
/// A provider that lists one collection or one item path more than once
/// (hostile or broken) gets one copy and one report row for it: the second
/// listing is the same object, not an item replacing the first.
package actor SecretServiceImporter {
    let vault: Vault
    let context: AuthenticationContext
    private var reports: [String: SecretServiceImportReport.Collection] = [:]
    private var targets: [String: Result<String, VaultError>] = [:]
    /// Item paths already handled, whatever became of them.
    private var handled: Set<String> = []

    /// An importer into `vault`, writing with `context` (which may hold the
    /// application password the vault's items need).
    package init(vault: Vault, context: AuthenticationContext) {
        self.vault = vault
        self.context = context
    }

    /// The report of the import so far, the source's own skips first.
    ///
    /// - Parameter source: The collections read from the source.
    /// - Returns: The report, with the totals.
    package func report(of source: [SecretServiceSourceCollection]) -> SecretServiceImportReport {
        var document = SecretServiceImportReport(copied: 0, replaced: 0, kept: 0, skipped: 0, collections: [])
        var listed: Set<String> = []
        for collection in source where listed.insert(collection.path).inserted {
            var report = report(for: collection)
            report.skipped = collection.skipped.map { .init(label: $0.label, path: $0.path, reason: $0.reason) } + report.skipped
            document.collections.append(report)
        }
        document.copied = document.collections.reduce(0) { $0 + $1.copied }
        document.replaced = document.collections.reduce(0) { $0 + $1.replaced }
        document.kept = document.collections.reduce(0) { $0 + $1.kept.count }
        document.skipped = document.collections.reduce(0) { $0 + $1.skipped.count }
        return document
    }

    func report(for collection: SecretServiceSourceCollection) -> SecretServiceImportReport.Collection {
        reports[collection.path] ?? SecretServiceImportReport.Collection(label: collection.label, path: collection.path, copied: 0, replaced: 0, kept: [], skipped: [])
    }

    /// Copies one item of `collection` into the vault's collection for it,
    /// or says in the report why not.
    package func copy(_ item: SecretServiceSourceItem, of collection: SecretServiceSourceCollection) async {
        guard handled.insert(item.path).inserted else { return }
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
            let existing = try await vault.collections.searchItems(attributes: SecretServiceImportAction.withoutGenericSchema(item.attributes), inCollection: target)
            let action = SecretServiceImportAction.action(
                forItemWith: item.attributes, candidates: existing.map { ($0.label, $0.attributes, $0.accessControl) })
            if case .keep(let label, let accessControl) = action {
                // SPEC D11: the owner's protected item stays as it is; the source's value is not copied.
                report.kept.append(.init(label: item.label, path: item.path, reason: """
                    the vault's item "\(label)" with these attributes is protected (\(accessControl)); \
                    it was kept, not replaced
                    """))
                return
            }
            // replacing: a second import takes the place of the first copy instead of adding another. The vault
            // replaces by exact attributes: the copy keeps its own form of them (xdg:schema or not), which
            // gnome-keyring reports one way before a restart and the other after (setup, undo, setup again).
            let equal = existing.first { SecretServiceImportAction.withoutGenericSchema($0.attributes) == SecretServiceImportAction.withoutGenericSchema(item.attributes) }
            _ = try await vault.collections.createItem(
                in: target, label: item.label, attributes: action == .replace ? equal?.attributes ?? item.attributes : item.attributes, contentType: item.contentType, value: item.secret,
                replacing: true, context: context, dates: (Double(item.created), Double(item.modified)))
            report.copied += 1
            if action == .replace { report.replaced += 1 }
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
                result = .success(try await vault.collections.alias(
                    named: VaultSecretServiceStore.defaultAlias, creatingCollectionLabelled: collection.label))
            } else if let existing = try await vault.collections.list().first(where: { $0.label == collection.label }) {
                result = .success(existing.id)
            } else {
                result = .success(try await vault.collections.create(label: collection.label).id)
            }
        } catch {
            result = .failure(error)
        }
        targets[collection.path] = result
        return result
    }
}
