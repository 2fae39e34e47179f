#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// Attributed items (SPEC D10): ordinary vault items of the
/// service ``service(ofCollection:)``, with attributes and a
/// content type sealed with their other attributes and found through keyed
/// hashes (SPEC D9). Listing and searching never prompt and never decrypt
/// a value.
extension VaultCollections {
    /// The items of a collection, sorted by label then identifier. Never
    /// prompts; opens only that collection's rows.
    ///
    /// - Parameter collection: The collection's identifier.
    /// - Returns: Its items; none for an unknown collection.
    /// - Throws: ``VaultError`` with `tampered` (a row fails its integrity
    ///   check; named in the message), `damaged`, `ioError`.
    public func items(inCollection collection: String) async throws(VaultError) -> [AttributedItem] {
        try await searchItems(attributes: [:], inCollection: collection)
    }

    /// The items whose attributes include every pair of `attributes` , sorted by label then identifier.
    /// Never prompts.
    ///
    /// Each pair is looked up in the index by its keyed hash, and only the
    /// rows every pair names are opened; their sealed attributes are then
    /// compared again, so the index alone never decides a match.
    ///
    /// - Parameters:
    ///   - attributes: The pairs to match; empty matches every item.
    ///   - collection: Only this collection's items; every collection's by default.
    /// - Returns: The matching items.
    /// - Throws: ``VaultError`` with `tampered` (a candidate row fails its
    ///   integrity check), `damaged`, `ioError`.
    public func searchItems(attributes: [String: String], inCollection collection: String? = nil) async throws(VaultError) -> [AttributedItem] {
        try await attributeSearch(AttributeIndex.Query(attributes: attributes, collection: collection)).rows
            .compactMap(\.attributedItem)
            .sorted { ($0.label, $0.id) < ($1.label, $1.id) }
    }

    /// One item's description, never its value. Never prompts.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    /// - Returns: The item.
    /// - Throws: ``VaultError`` with `itemNotFound`, `tampered`, `damaged`, `ioError`.
    public func item(_ id: String, inCollection collection: String) async throws(VaultError) -> AttributedItem {
        let row = try await attributedRow(id, inCollection: collection)
        guard let item = row.attributedItem else { throw VaultError(.tampered, "\(row.name) has attributes this Sesame cannot read") }
        return item
    }

    /// Creates an item in a collection.
    /// Never prompts, as ``VaultItems/add(_:service:account:label:accessibility:accessControl:context:)``.
    ///
    /// With `replacing`, an item of the same collection whose attributes
    /// are exactly `attributes` is replaced in the same transaction: the new
    /// item keeps its identifier, so clients holding its path still reach it.
    /// An item protected by an access control is replaced only when
    /// `context` already satisfies it (never prompting), and the new item
    /// keeps that access control instead of `accessControl` (SPEC D11):
    /// otherwise `interactionNotAllowed`, and the item is kept.
    ///
    /// The item records `app` as the app that made it (SPEC D13); a
    /// replacement records the replacing app and keeps the apps the owner
    /// allowed on the item it replaces. A replacement by an unknown app
    /// (`nil`) keeps the recorded app: an item is never opened to every app
    /// by a caller that cannot say who it is (SPEC D11); ``bindItem(_:inCollection:to:)``
    /// clears it on purpose. Whether `app` may replace an item recorded by
    /// another is the caller's question for the owner
    /// (``AttributedItem/admits(_:)``), asked before this call.
    ///
    /// - Parameters:
    ///   - collection: The collection's identifier.
    ///   - label: The item's label; never a control character.
    ///   - attributes: Its lookup attributes: names without control
    ///     characters, values any text; at most 128 pairs.
    ///   - contentType: The value's content type.
    ///   - value: The secret.
    ///   - accessControl: Who may read it; none by default.
    ///   - replacing: Whether to replace an item with the same attributes.
    ///   - context: Supplies the application password and the domain state,
    ///     as for `add`; a new context by default.
    ///   - dates: The item's created and modified dates in seconds since
    ///     1970, for an item copied from elsewhere (an
    ///     import); now when `nil`. Dates from outside must
    ///     be finite and not in the future (SPEC D9), else `invalidArgument`.
    ///   - app: The app of the client that creates or replaces it; `nil`
    ///     (the default) records none, as before apps were recorded: an
    ///     import, or a caller that cannot tell.
    /// - Returns: The new item.
    /// - Throws: ``VaultError`` with `itemNotFound` (no such collection),
    ///   `duplicateItem` (an item of the same identifier appeared
    ///   meanwhile), `interactionNotAllowed` (the item to replace is
    ///   protected and `context` does not satisfy it), `invalidName`, `invalidArgument` (too many or too long
    ///   attributes; an executable `app` not named by its absolute path),
    ///   `authFailed`, `notAvailable` (as `add`), `tampered`, `ioError`.
    public func createItem(
        in collection: String,
        label: String,
        attributes: [String: String],
        contentType: String = "text/plain",
        value: SecretBytes,
        accessControl: AccessControl = Vault.noAccessControl,
        replacing: Bool = false,
        context: AuthenticationContext? = nil,
        dates: (created: Double, modified: Double)? = nil,
        app: AppIdentity? = nil
    ) async throws(VaultError) -> AttributedItem {
        if let app { try AttributedItemFields.check(app: app, what: "The item's app") }
        if let dates {
            // SPEC D9: as the file import, a date from outside is checked before anything is sealed.
            let now = vault.authenticators.clock.now().timeIntervalSince1970
            if let problem = OutsideText.problem(date: dates.created, now: now) ?? OutsideText.problem(date: dates.modified, now: now) {
                throw VaultError(.invalidArgument, "Not created: \(problem)")
            }
        }
        try Vault.checkValueSize(value, of: "the item \"\(label.escapingControlCharacters())\"")
        _ = try await self.collection(collection)
        var identifier = CollectionNames.newIdentifier()
        var accessControl = accessControl
        var replaced: [ItemRow] = []
        var apps = (app: app, allowed: [AppIdentity]())
        if replacing {
            replaced = try await attributeSearch(AttributeIndex.Query(attributes: attributes, collection: collection)).rows
                .filter { $0.attributedFields?.attributes == attributes }
            if let existing = replaced.first?.attributedFields {
                identifier = replaced[0].account
                // SPEC D13: the owner's answers stay with the item; SPEC D11: an unknown replacer never unbinds it.
                apps = (app ?? replaced.lazy.compactMap { $0.attributedFields?.app }.first, existing.allowedApps)
            }
            // SPEC D11: every item it would take the place of must be open to this caller; the new one keeps the strongest protection.
            for existing in replaced {
                // SPEC D13: another app's item is replaced only once the owner allowed the replacing app; never asked here.
                if let item = existing.attributedItem, !item.admits(app), !(context?.isAllowedOnce(VaultRows.appAccessKey(existing)) ?? false),
                   let maker = item.app {
                    let request = AppAccessRequest(asking: app, maker: maker, itemLabel: item.label, operation: .change)
                    throw VaultError(.interactionNotAllowed, "\(request.question). The owner has not allowed it; nothing was written")
                }
                let kept = try await vault.rows.accessControlReplacing(existing, requested: accessControl, context: context)
                if !kept.userFactors.isEmpty { accessControl = kept }
            }
        }
        let row = try await newAttributedRow(
            identifier, in: collection, label: label, attributes: attributes, contentType: contentType, value: value,
            accessControl: accessControl, context: context, dates: dates, apps: apps)
        let checked = replaced
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            guard try CollectionRecord.fetch(db, id: collection, subkeys: subkeys) != nil else {
                throw VaultError(.itemNotFound, "The collection \"\(collection.escapingControlCharacters())\" was deleted meanwhile; nothing was written")
            }
            if replacing {
                let found = try AttributeIndex.search(db, query: AttributeIndex.Query(attributes: attributes, collection: collection), subkeys: subkeys)
                guard found.tampered.isEmpty else {
                    throw VaultError(.tampered, "These failed their integrity check (edited or swapped rows): \(found.tampered.joined(separator: ", "))")
                }
                for old in found.rows where old.attributedFields?.attributes == attributes {
                    // Only the rows that were checked go; one that appeared or changed since is kept.
                    // Its recorded apps count too: an owner's answer given meanwhile is not lost.
                    guard checked.contains(where: { old.isSameRevision(as: $0) && old.attributedFields == $0.attributedFields }) else {
                        throw VaultError(.duplicateItem, "\(old.name) changed while being replaced; it is kept as it is and nothing was written")
                    }
                    try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [old.id])
                    try AttributeIndex.remove(table: "item", id: old.id, db)
                }
            }
            guard try ItemRow.fetch(db, service: row.service, account: row.account, subkeys: subkeys) == nil else {
                throw VaultError(.duplicateItem, "\(row.name) already exists (it changed while being replaced); nothing was written")
            }
            try row.insert(db, subkeys: subkeys)
            try CollectionRecord.touch(db, id: collection, now: row.created, subkeys: subkeys)
        }
        guard let item = row.attributedItem else { throw VaultError(.ioError, "\(row.name) was written with an unreadable access control") }
        return item
    }

    /// Deletes an item of a collection. An item another app made is deleted
    /// only when the owner allows the context's app (SPEC D13): asked here
    /// unless the context does not allow interaction.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - context: The caller's context (its app, its "allow once"); a
    ///     context of the vault's own when `nil`.
    /// - Throws: ``VaultError`` with `itemNotFound`, `interactionNotAllowed`
    ///   or `userCanceled` (another app's item, SPEC D13), `tampered`, `ioError`.
    public func deleteItem(_ id: String, inCollection collection: String, context: AuthenticationContext? = nil) async throws(VaultError) {
        let row = try await attributedRow(id, inCollection: collection)
        try await vault.rows.admitApp(row, operation: .delete, context: context ?? vault.makeContext(), mayAsk: true)
        let subkeys = vault.subkeys
        let now = vault.authenticators.clock.now().timeIntervalSince1970
        try await vault.rows.write { db in
            guard try ItemRow.delete(db, service: row.service, account: row.account, subkeys: subkeys) else {
                throw VaultError(.itemNotFound, "\(row.name) was deleted meanwhile")
            }
            try CollectionRecord.touch(db, id: collection, now: now, subkeys: subkeys)
        }
    }

    // MARK: Helpers

    /// A sealed, MACed row for a new item, not yet written: the same
    /// protection and sealing as `add`.
    func newAttributedRow(
        _ identifier: String, in collection: String, label: String, attributes: [String: String], contentType: String,
        value: SecretBytes, accessControl: AccessControl, context: AuthenticationContext?,
        dates: (created: Double, modified: Double)? = nil, apps: (app: AppIdentity?, allowed: [AppIdentity]) = (nil, [])
    ) async throws(VaultError) -> ItemRow {
        try CollectionNames.check(label: label, what: "item")
        try CollectionNames.check(attributes: attributes)
        try CollectionNames.check(contentType: contentType)
        let name = "the item \"\(label.escapingControlCharacters())\" of collection \"\(collection.escapingControlCharacters())\""
        let accessibility = ItemAccessibility.whenUnlocked
        let protection = try await vault.rows.newProtection(accessControl, accessibility: accessibility, operation: .createItem, name: name, context: context)
        let id = Int64.random(in: 1...Int64.max)
        let itemKey = SymmetricKey(size: .bits256)
        let wrappings = try vault.rows.wrap(itemKey, id: id, label: Labels.itemKey, accessControl: accessControl, accessibility: accessibility,
                                 protection: protection)
        let now = vault.authenticators.clock.now().timeIntervalSince1970
        var row = ItemRow(
            id: id, service: CollectionNames.service(ofCollection: collection), account: identifier, label: label,
            accessibility: accessibility.rawValue, accessControl: accessControl.canonicalEncoding, created: dates?.created ?? now, modified: dates?.modified ?? now,
            wrappings: wrappings, commitment: protection.domainState.map { vault.subkeys.commitment(to: $0) }, ciphertext: [])
        row.attributedFields = AttributedItemFields(contentType: contentType, attributes: attributes, app: apps.app, allowedApps: apps.allowed)
        try vault.rows.sealValue(value, into: &row, key: itemKey)
        return row
    }

    /// What the index finds for `query`, every candidate checked.
    func attributeSearch(_ query: AttributeIndex.Query) async throws(VaultError) -> AttributeIndex.Found {
        let subkeys = vault.subkeys
        let found = try await vault.rows.readDatabase { db in try AttributeIndex.search(db, query: query, subkeys: subkeys) }
        guard found.tampered.isEmpty else {
            throw VaultError(.tampered, "These failed their integrity check (edited or swapped rows): \(found.tampered.joined(separator: ", "))")
        }
        return found
    }

    /// The verified row of an attributed item; an ordinary item of the
    /// same service and account is not one.
    func attributedRow(_ id: String, inCollection collection: String) async throws(VaultError) -> ItemRow {
        let row = try await vault.rows.verifiedRow(service: CollectionNames.service(ofCollection: collection), account: id)
        guard row.attributedFields != nil else {
            throw VaultError(.itemNotFound, "No item \"\(id.escapingControlCharacters())\" in collection \"\(collection.escapingControlCharacters())\"")
        }
        return row
    }
}

extension ItemRow {
    var attributedItem: AttributedItem? {
        guard let fields = attributedFields, let collection = CollectionNames.collection(ofService: service),
              let accessControl = AccessControl(canonicalEncoding: accessControl) else { return nil }
        return AttributedItem(
            id: account, collection: collection, label: label ?? "", attributes: fields.attributes, contentType: fields.contentType,
            created: Date(timeIntervalSince1970: created), modified: Date(timeIntervalSince1970: modified), accessControl: accessControl,
            app: fields.app, allowedApps: fields.allowedApps)
    }
}
