#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// Collections and their aliases (SPEC D10), stored
/// sealed in the vault (SPEC D9). Nothing here prompts.
extension VaultCollections {
    /// The vault service that holds a collection's items:
    /// `secret-service/` (the prefix is persisted) and the collection's identifier. `sesame ls` shows
    /// the items under it; their accounts are the items' identifiers.
    ///
    /// - Parameter id: The collection's identifier.
    /// - Returns: The service name.
    public static func service(ofCollection id: String) -> String {
        CollectionNames.service(ofCollection: id)
    }

    /// The collection whose items a vault service holds: the inverse of
    /// ``service(ofCollection:)``.
    ///
    /// - Parameter service: A vault service, as `sesame ls` shows it.
    /// - Returns: The collection's identifier; `nil` for a service that is
    ///   not a collection's.
    public static func collection(ofService service: String) -> String? {
        CollectionNames.collection(ofService: service)
    }

    /// Every collection, sorted by label then identifier. Never prompts,
    /// never writes.
    ///
    /// - Returns: The collections; none in a vault that never had one.
    /// - Throws: ``VaultError`` with `tampered` (a record was edited),
    ///   `damaged`, `ioError`.
    public func list() async throws(VaultError) -> [ItemCollection] {
        let subkeys = vault.subkeys
        let records = try await vault.rows.readDatabase { db in try CollectionRecord.fetchAll(db, subkeys: subkeys) }
        return records.map(\.description).sorted { ($0.label, $0.id) < ($1.label, $1.id) }
    }

    /// One collection. Never prompts, never writes.
    ///
    /// - Parameter id: Its identifier.
    /// - Returns: The collection.
    /// - Throws: ``VaultError`` with `itemNotFound`, `tampered`, `damaged`, `ioError`.
    public func collection(_ id: String) async throws(VaultError) -> ItemCollection {
        let subkeys = vault.subkeys
        guard let record = try await vault.rows.readDatabase({ db in try CollectionRecord.fetch(db, id: id, subkeys: subkeys) }) else {
            throw VaultError(.itemNotFound, "No collection \"\(id.escapingControlCharacters())\"")
        }
        return record.description
    }

    /// Creates a collection, and points `alias` at it in the same
    /// transaction. Never prompts.
    ///
    /// - Parameters:
    ///   - label: Its label; may be empty, never a control character.
    ///   - alias: An alias to point at it (replacing where it pointed), or `nil`.
    /// - Returns: The new collection.
    /// - Throws: ``VaultError`` with `invalidName` (a control character),
    ///   `invalidArgument` (too long, an empty alias), `ioError`.
    public func create(label: String, alias: String? = nil) async throws(VaultError) -> ItemCollection {
        try CollectionNames.check(label: label, what: "collection")
        if let alias { try CollectionNames.check(alias: alias) }
        let now = vault.authenticators.clock.now().timeIntervalSince1970
        let record = CollectionRecord(id: CollectionNames.newIdentifier(), label: label, created: now, modified: now)
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            try record.save(db, subkeys: subkeys)
            if let alias { try AliasRecord.store(db, name: alias, collection: record.id, subkeys: subkeys) }
        }
        return record.description
    }

    /// Deletes a collection, its items (values included) and its aliases,
    /// in one transaction. Never prompts, as deleting an item does not.
    ///
    /// - Parameter id: The collection's identifier.
    /// - Throws: ``VaultError`` with `itemNotFound`, `tampered` (one of its
    ///   items does not open; nothing is deleted), `ioError`.
    public func delete(_ id: String) async throws(VaultError) {
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            guard try CollectionRecord.fetch(db, id: id, subkeys: subkeys) != nil else {
                throw VaultError(.itemNotFound, "No collection \"\(id.escapingControlCharacters())\" to delete")
            }
            try AttributeIndex.deleteItems(ofCollection: id, db, subkeys: subkeys)
            try AliasRecord.removeAll(pointingTo: id, db, subkeys: subkeys)
            try db.execute(sql: "DELETE FROM collection WHERE id = ?", arguments: [id])
        }
    }

    /// Relabels a collection. Never prompts.
    ///
    /// - Parameters:
    ///   - label: The new label; never a control character.
    ///   - id: The collection's identifier.
    /// - Throws: ``VaultError`` with `itemNotFound`, `invalidName`,
    ///   `invalidArgument`, `tampered`, `ioError`.
    public func setLabel(_ label: String, of id: String) async throws(VaultError) {
        try CollectionNames.check(label: label, what: "collection")
        let now = vault.authenticators.clock.now().timeIntervalSince1970
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            guard var record = try CollectionRecord.fetch(db, id: id, subkeys: subkeys) else {
                throw VaultError(.itemNotFound, "No collection \"\(id.escapingControlCharacters())\" to relabel")
            }
            record.label = label
            record.modified = max(now, record.modified)
            try record.save(db, subkeys: subkeys)
        }
    }

    /// The collection an alias points to. Never prompts, never writes.
    ///
    /// - Parameter name: The alias.
    /// - Returns: The collection's identifier, or `nil` when the alias
    ///   points nowhere (or at a collection since deleted).
    /// - Throws: ``VaultError`` with `tampered`, `damaged`, `ioError`.
    public func alias(named name: String) async throws(VaultError) -> String? {
        let subkeys = vault.subkeys
        return try await vault.rows.readDatabase { db -> String? in
            guard let id = try AliasRecord.fetch(db, name: name, subkeys: subkeys),
                  try CollectionRecord.fetch(db, id: id, subkeys: subkeys) != nil else { return nil }
            return id
        }
    }

    /// The collection an alias points to, made and pointed at when it
    /// points nowhere: an alias that must always resolve. Never prompts.
    ///
    /// Resolving an alias that points somewhere only reads. When it points
    /// nowhere, a collection labelled `label` is created and the alias
    /// pointed at it in one transaction; a collection another process
    /// pointed it at meanwhile wins, so every process resolves it alike.
    ///
    /// - Parameters:
    ///   - name: The alias; not empty, never a control character.
    ///   - label: The label of the collection made for it, if one is.
    /// - Returns: The collection's identifier.
    /// - Throws: ``VaultError`` with `invalidName`, `invalidArgument`,
    ///   `tampered`, `damaged`, `ioError`.
    public func alias(named name: String, creatingCollectionLabelled label: String) async throws(VaultError) -> String {
        if let found = try await alias(named: name) { return found }
        try CollectionNames.check(alias: name)
        try CollectionNames.check(label: label, what: "collection")
        let subkeys = vault.subkeys
        let now = vault.authenticators.clock.now().timeIntervalSince1970
        let record = CollectionRecord(id: CollectionNames.newIdentifier(), label: label, created: now, modified: now)
        let chosen = Locked(record.id)
        try await vault.rows.write { db in
            // Another process may have made it meanwhile: its collection wins.
            if let id = try AliasRecord.fetch(db, name: name, subkeys: subkeys), try CollectionRecord.fetch(db, id: id, subkeys: subkeys) != nil {
                chosen.withLock { $0 = id }
                return
            }
            try record.save(db, subkeys: subkeys)
            try AliasRecord.store(db, name: name, collection: record.id, subkeys: subkeys)
        }
        return chosen.withLock { $0 }
    }

    /// Points an alias at a collection, or removes it. Never prompts.
    ///
    /// - Parameters:
    ///   - name: The alias; not empty, never a control character.
    ///   - collection: The collection's identifier, or `nil` to remove the alias.
    /// - Throws: ``VaultError`` with `itemNotFound` (no such collection),
    ///   `invalidName`, `invalidArgument`, `tampered`, `ioError`.
    public func setAlias(_ name: String, to collection: String?) async throws(VaultError) {
        try CollectionNames.check(alias: name)
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            if let collection, try CollectionRecord.fetch(db, id: collection, subkeys: subkeys) == nil {
                throw VaultError(.itemNotFound, "No collection \"\(collection.escapingControlCharacters())\" for the alias \"\(name.escapingControlCharacters())\"")
            }
            try AliasRecord.store(db, name: name, collection: collection, subkeys: subkeys)
        }
    }
}
