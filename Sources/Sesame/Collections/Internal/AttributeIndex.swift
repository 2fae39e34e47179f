#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// The `attribute_index` table (format 7, SPEC D9, D10): keyed hashes of an
/// attributed item's attribute pairs, each mapped to the row's id. An item
/// of a collection also has the hashes of its collection and of "is an
/// attributed item"; an ordinary item with lookup attributes (a git
/// credential) has the hash of its service instead: a collection's search
/// never finds it, and a service's search never finds a collection's item.
///
/// A search looks its terms up here (an index read per term) and opens only
/// the rows every term names. The index is only a hint: its rows carry no
/// MAC, so every candidate's sealed attributes are opened and compared
/// again, and an index row added by hand can never make an item match.
enum AttributeIndex {
    /// What a search asks for.
    struct Query: Sendable {
        var attributes: [String: String]
        var collection: String?
        /// An ordinary service's items instead of collections' (never both).
        var service: String?

        /// One hash per term; "is an attributed item" (or the service) always,
        /// so an empty query still reads the index, never the whole item table.
        func hashes(subkeys: VaultSubkeys) -> [[UInt8]] {
            var hashes: [[UInt8]]
            if let service {
                hashes = [subkeys.indexHash("service", service)]
            } else {
                hashes = [subkeys.indexHash("item")]
                if let collection { hashes.append(subkeys.indexHash("collection", collection)) }
            }
            for (name, value) in attributes { hashes.append(subkeys.indexHash("attribute", name, value)) }
            return hashes
        }

        /// The check on the opened row that the index only suggested.
        func matches(_ row: ItemRow) -> Bool {
            guard let fields = row.attributedFields else { return false }
            let rowCollection = CollectionNames.collection(ofService: row.service)
            if let service {
                guard rowCollection == nil, row.service == service else { return false }
            } else {
                guard let rowCollection else { return false }
                if let collection, collection != rowCollection { return false }
            }
            return attributes.allSatisfy { fields.attributes[$0.key] == $0.value }
        }
    }

    /// What a search found, and how many rows it opened to find it.
    struct Found: Sendable {
        var rows: [ItemRow] = []
        /// Rows that did not open or failed their MAC, named for the error.
        var tampered: [String] = []
        var opened = 0
    }

    static func hashes(of row: ItemRow, subkeys: VaultSubkeys) -> [[UInt8]] {
        guard let fields = row.attributedFields else { return [] }
        guard let collection = CollectionNames.collection(ofService: row.service) else {
            return Query(attributes: fields.attributes, service: row.service).hashes(subkeys: subkeys)
        }
        return Query(attributes: fields.attributes, collection: collection).hashes(subkeys: subkeys)
    }

    /// Indexes an attributed item (of a collection or of a service) just
    /// inserted; other rows have no entries.
    static func insert(_ row: ItemRow, _ db: Database, subkeys: VaultSubkeys) throws {
        guard row.table == "item", row.attributedFields != nil else { return }
        // Not a cached statement: a cached one keeps its last arguments (a
        // keyed hash of the attributes) bound for the connection's lifetime.
        for hash in hashes(of: row, subkeys: subkeys) {
            try db.execute(sql: "INSERT OR IGNORE INTO attribute_index (hash, item) VALUES (?, ?)", arguments: [Data(hash), row.id])
        }
    }

    /// Drops the entries of row `id` (deleted or about to be rewritten).
    static func remove(table: String, id: Int64, _ db: Database) throws {
        guard table == "item", try db.tableExists("attribute_index") else { return }
        try db.execute(sql: "DELETE FROM attribute_index WHERE item = ?", arguments: [id])
    }

    /// The ids that every hash of `query` names.
    ///
    /// The narrowest term's range is read and each other term is probed
    /// per candidate on the primary key. Reading every term's range and
    /// grouping them (as this did) costs the size of the widest range, and
    /// "is an attributed item" and a collection's term name every item
    /// of a one-collection vault: each search, lookup and replacing store
    /// read the whole index (measured with 10,000 items).
    static func candidates(_ db: Database, query: Query, subkeys: VaultSubkeys) throws -> [Int64] {
        guard try db.tableExists("attribute_index") else { return [] }
        var hashes = query.hashes(subkeys: subkeys).map { Data($0) }
        // Counting a range only up to a bound keeps choosing cheap; past
        // the bound every term is wide and any one drives as well as another.
        let bound = 64
        var sizes: [Int] = []
        for hash in hashes {
            let size = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (SELECT 1 FROM attribute_index WHERE hash = ? LIMIT \(bound))",
                                        arguments: [hash]) ?? 0
            if size == 0 { return [] }
            sizes.append(size)
        }
        guard let narrowest = sizes.indices.min(by: { sizes[$0] < sizes[$1] }) else { return [] }
        let driver = hashes.remove(at: narrowest)
        let probes = hashes.map { _ in
            " AND EXISTS (SELECT 1 FROM attribute_index AS other WHERE other.hash = ? AND other.item = driver.item)"
        }.joined()
        return try Int64.fetchAll(db, sql: "SELECT driver.item FROM attribute_index AS driver WHERE driver.hash = ?\(probes)",
                                  arguments: StatementArguments([driver] + hashes))
    }

    /// Opens the rows of `ids` and keeps those whose sealed attributes
    /// really match `query` (an id of no row is skipped: its item is gone).
    static func search(_ db: Database, query: Query, subkeys: VaultSubkeys) throws -> Found {
        var found = Found()
        let ids = try candidates(db, query: query, subkeys: subkeys)
        // SQLite limits the parameters of one statement; chunks keep each well below.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try Row.fetchAll(db, sql: "SELECT \(ItemRow.sealedColumns) FROM item WHERE id IN (\(marks))",
                                        arguments: StatementArguments(chunk))
            for row in rows {
                found.opened += 1
                do throws(VaultError) {
                    let item = try ItemRow(row, table: "item", subkeys: subkeys)
                    guard subkeys.verify(item) else {
                        found.tampered.append(item.name)
                        continue
                    }
                    if query.matches(item) { found.rows.append(item) }
                } catch {
                    found.tampered.append(error.message)
                }
            }
        }
        return found
    }

    /// Deletes every attributed item of `collection`, with its index
    /// entries (the collection is being deleted). Each is opened first: an
    /// index row added by hand must not delete another collection's item.
    ///
    /// - Throws: ``VaultError`` `tampered` when one does not open (nothing is deleted).
    static func deleteItems(ofCollection collection: String, _ db: Database, subkeys: VaultSubkeys) throws {
        let found = try search(db, query: Query(attributes: [:], collection: collection), subkeys: subkeys)
        guard found.tampered.isEmpty else {
            throw VaultError(.tampered, "These failed their integrity check (edited or swapped rows): \(found.tampered.joined(separator: ", "))")
        }
        for row in found.rows {
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [row.id])
            try remove(table: "item", id: row.id, db)
        }
    }
}
