#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// One row of the `item` table, or of the `key` table (SPEC D7).
///
/// From format 6 (SPEC D9) a row stores no name, label, protection or date
/// in the clear: they are sealed in its `attributes` column (see
/// ``SealedAttributes``) and the row is found by `lookup`, a keyed hash of
/// its table, service and account. Rows of older files keep those columns
/// in the clear until the first write upgrades the file; reads handle both.
///
/// `mac` covers every attribute, `id`, `lookup` and every other column, so
/// editing any column, or moving a ciphertext or wrapping to another row,
/// fails verification.
/// A key row is an item row whose value is a private key, plus its
/// algorithm and public key; its labels differ from an item's in the MAC,
/// the wrappings and the value, so no key row can pass for an item (whose
/// value `read` would return) nor the other way round.
///
/// Its name, label, protection and dates are one ``ItemFields`` value, read
/// and changed as `row.service`, `row.modified` and so on.
struct ItemRow: Sendable {
    /// What only a key row has.
    struct KeyColumns: Sendable, Equatable {
        /// A ``KeyAlgorithm`` raw value.
        var algorithm: String
        /// The public key's raw representation.
        var publicKey: [UInt8]
        /// The sealed ``KeyConstraintsRecord`` (SPEC D8), or `nil` for a key
        /// without constraints. Covered by the row's MAC only when present,
        /// so rows written before format 5 keep their MAC, and emptying it
        /// for a constrained key fails the row's integrity check.
        var constraints: [UInt8]? = nil
    }

    var id: Int64
    /// The item's name, label, protection and dates.
    var fields: ItemFields
    var wrappings: [UInt8]
    var commitment: [UInt8]?
    var ciphertext: [UInt8]
    var mac: [UInt8]
    /// Set for a row of the `key` table.
    var key: KeyColumns?
    /// The keyed hash the row is found by; `nil` for a row read from a file
    /// from before format 6, set by ``sealValue`` before the row is MACed.
    var lookup: [UInt8]?
    /// A Secret Service item's attributes and content type (format 7, SPEC
    /// D10), and the apps it records (SPEC D13); `nil` for every other row. Indexed in `attribute_index`
    /// whenever the row is inserted.
    var attributedFields: AttributedItemFields?

    // The fields by name, for the row's many readers (extensions included,
    // which dynamic member lookup would not reach through an implicit self).
    var service: String { get { fields.service } set { fields.service = newValue } }
    var account: String { get { fields.account } set { fields.account = newValue } }
    var label: String? { get { fields.label } set { fields.label = newValue } }
    var accessibility: String { get { fields.accessibility } set { fields.accessibility = newValue } }
    var accessControl: String { get { fields.accessControl } set { fields.accessControl = newValue } }
    var created: Double { get { fields.created } set { fields.created = newValue } }
    var modified: Double { get { fields.modified } set { fields.modified = newValue } }

    static let columns = "id, service, account, label, accessibility, access_control, created, modified, wrappings, commitment, ciphertext, mac"
    static let keyTableColumns = columns + ", algorithm, public_key"

    /// The table the row lives in.
    var table: String { key == nil ? "item" : "key" }

    static func columns(of table: String) -> String { table == "key" ? keyTableColumns : columns }

    /// What a `SELECT` of a file from before format 6 reads: the key table's
    /// `constraints` column exists only from format 5 on (a vault is
    /// migrated at its first write, not when it is read), so its rows are
    /// read by name whatever they have.
    static func selectedColumns(of table: String) -> String { table == "key" ? "*" : columns }

    init(id: Int64, service: String, account: String, label: String?, accessibility: String, accessControl: String,
         created: Double, modified: Double, wrappings: [UInt8], commitment: [UInt8]?, ciphertext: [UInt8], mac: [UInt8] = [],
         key: KeyColumns? = nil) {
        self.init(id: id, fields: ItemFields(service: service, account: account, label: label, accessibility: accessibility,
                                             accessControl: accessControl, created: created, modified: modified),
                  wrappings: wrappings, commitment: commitment, ciphertext: ciphertext, mac: mac, key: key)
    }

    init(id: Int64, fields: ItemFields, wrappings: [UInt8], commitment: [UInt8]?, ciphertext: [UInt8], mac: [UInt8] = [],
         key: KeyColumns? = nil) {
        self.id = id
        self.fields = fields
        self.wrappings = wrappings
        self.commitment = commitment
        self.ciphertext = ciphertext
        self.mac = mac
        self.key = key
    }

    /// The columns of a table from format 6.
    static let sealedColumns = "id, lookup, attributes, wrappings, commitment, ciphertext, mac"

    /// Reads a row of `table` in either layout, opening sealed attributes
    /// (`tampered` when they do not open or their lookup does not match).
    init(_ row: Row, table: String, subkeys: VaultSubkeys) throws(VaultError) {
        guard row.hasColumn("lookup") else {
            try self.init(row)
            return
        }
        let columns = RowColumns(row: row) { name in
            VaultError(.tampered, "The \(name) column of a \(table) row is missing or of the wrong type: the file was edited")
        }
        let id: Int64 = try columns.value("id")
        let lookup = Array(try columns.value("lookup", as: Data.self))
        let attributes = try SealedAttributes.open(Array(try columns.value("attributes", as: Data.self)), id: id, table: table, subkeys: subkeys)
        self.init(
            id: id, fields: attributes.fields,
            wrappings: Array(try columns.value("wrappings", as: Data.self)),
            commitment: try columns.optional("commitment", as: Data.self).map { Array($0) },
            ciphertext: Array(try columns.value("ciphertext", as: Data.self)), mac: Array(try columns.value("mac", as: Data.self)),
            key: attributes.key)
        attributedFields = attributes.attributedFields
        guard ConstantTime.equals(lookup, subkeys.lookup(table: table, service: service, account: account)) else {
            throw VaultError(.tampered, "A \(table) row (id \(id)) is filed under another name's lookup: the file was edited")
        }
        self.lookup = lookup
    }

    /// Reads a row of a file from before format 6; a column of the wrong type means the file was edited.
    init(_ row: Row) throws(VaultError) {
        let columns = RowColumns(row: row) { name in
            VaultError(.tampered, "The \(name) column of an item row is missing or of the wrong type: the file was edited")
        }
        self.init(
            id: try columns.value("id"), service: try columns.value("service"), account: try columns.value("account"),
            label: try columns.optional("label"),
            accessibility: try columns.value("accessibility"), accessControl: try columns.value("access_control"),
            created: try columns.value("created"), modified: try columns.value("modified"),
            wrappings: Array(try columns.value("wrappings", as: Data.self)),
            commitment: try columns.optional("commitment", as: Data.self).map { Array($0) },
            ciphertext: Array(try columns.value("ciphertext", as: Data.self)), mac: Array(try columns.value("mac", as: Data.self)),
            key: row.hasColumn("algorithm")
                ? KeyColumns(algorithm: try columns.value("algorithm"), publicKey: Array(try columns.value("public_key", as: Data.self)),
                             constraints: row.hasColumn("constraints") ? try columns.optional("constraints", as: Data.self).map { Array($0) } : nil)
                : nil
        )
    }

    var name: String { (key == nil ? "" : "key ") + "\"\(account)\" of \"\(service)\"" }

    var macInput: [UInt8] {
        Envelope.associatedData(key == nil ? Labels.itemRow : Labels.keyRow) { writer in
        writer.u64(UInt64(bitPattern: id))
        fields.write(into: &writer)
        writer.field(wrappings)
        if let commitment { writer.u8(1); writer.field(commitment) } else { writer.u8(0) }
        writer.field(ciphertext)
        if let key {
            writer.field(key.algorithm)
            writer.field(key.publicKey)
            if let constraints = key.constraints { writer.u8(1); writer.field(constraints) }
        }
        // A sealed row's MAC differs from the same row's in the clear.
        if let lookup { writer.field(lookup) }
        // Only present for Secret Service items, so every other row keeps its
        // MAC; the marker tells an app block (SPEC D13) from none.
        if let attributedFields {
            writer.u8(attributedFields.recordsApps ? SealedAttributes.appsVersion : SealedAttributes.attributedItemVersion)
            attributedFields.write(into: &writer)
        }
        }
    }

    /// Whether `other` is the same stored version of this row, whichever
    /// layout each was read from (a write may upgrade the file between a
    /// read and a compare-and-swap): the value's random nonce, the
    /// wrappings and the commitment change with every write of the row.
    func isSameRevision(as other: ItemRow) -> Bool {
        id == other.id && ciphertext == other.ciphertext && wrappings == other.wrappings && commitment == other.commitment
    }

    /// The AES-GCM associated data of the value (a key's private key): format
    /// version and the row's identity and protection, so a ciphertext only
    /// opens in its own row.
    var associatedData: [UInt8] {
        Envelope.associatedData(key == nil ? Labels.itemValue : Labels.privateKey) { writer in
            writer.u64(UInt64(bitPattern: id))
            writer.field(service)
            writer.field(account)
            writer.field(accessibility)
            writer.field(accessControl)
            if let key { writer.field(key.algorithm) }
        }
    }

    /// The label of the associated data of this row's wrappings.
    var wrappingLabel: String { key == nil ? Labels.itemKey : Labels.privateKeyWrapping }

    /// Inserts the row, sealed (format 6), into `table` (its own by default),
    /// with its attribute index entries when it is a Secret Service item.
    func insert(_ db: Database, subkeys: VaultSubkeys, into destination: String? = nil) throws {
        guard let lookup else { throw VaultError(.ioError, "\(name) has no lookup; it was not sealed") }
        let attributes = try SealedAttributes.seal(self, subkeys: subkeys)
        try db.execute(sql: "INSERT INTO \(destination ?? table) (\(Self.sealedColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       arguments: [id, Data(lookup), Data(attributes), Data(wrappings), commitment.map { Data($0) }, Data(ciphertext), Data(mac)])
        try AttributeIndex.insert(self, db, subkeys: subkeys)
    }

    func replace(_ db: Database, subkeys: VaultSubkeys) throws {
        try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id])
        try AttributeIndex.remove(table: table, id: id, db)
        try insert(db, subkeys: subkeys)
    }

    /// Whether `table` has the sealed layout of format 6 (SPEC D9). GRDB
    /// caches the schema, so this costs no query on a point read.
    static func isSealed(_ db: Database, table: String) throws -> Bool {
        try db.columns(in: table).contains { $0.name == "lookup" }
    }

    /// The row of `service`/`account` in `table` (`item` or `key`): one
    /// indexed read by keyed hash; `nil` when there is none, or no `key`
    /// table yet (a vault from before format 3).
    static func fetch(_ db: Database, table: String = "item", service: String, account: String, subkeys: VaultSubkeys) throws -> ItemRow? {
        if table == "key", try !db.tableExists("key") { return nil }
        let row: Row?
        // Cached: a point read is a few microseconds, parsing the query again would double it.
        if try isSealed(db, table: table) {
            let statement = try db.cachedStatement(sql: "SELECT \(sealedColumns) FROM \(table) WHERE lookup = ?")
            row = try Row.fetchOne(statement, arguments: [Data(subkeys.lookup(table: table, service: service, account: account))])
            // The cache would keep the last lookup bound until the next read; keep none.
            statement.setUncheckedArguments([Data()])
        } else {
            let statement = try db.cachedStatement(sql: "SELECT \(selectedColumns(of: table)) FROM \(table) WHERE service = ? AND account = ?")
            row = try Row.fetchOne(statement, arguments: [service, account])
        }
        return try row.map { row throws in try ItemRow(row, table: table, subkeys: subkeys) }
    }

    /// Deletes the row of `service`/`account` in `table`; whether there was one.
    static func delete(_ db: Database, table: String = "item", service: String, account: String, subkeys: VaultSubkeys) throws -> Bool {
        if table == "key", try !db.tableExists("key") { return false }
        if try isSealed(db, table: table) {
            let lookup = Data(subkeys.lookup(table: table, service: service, account: account))
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM \(table) WHERE lookup = ?", arguments: [lookup]) {
                try AttributeIndex.remove(table: table, id: id, db)
            }
            try db.execute(sql: "DELETE FROM \(table) WHERE lookup = ?", arguments: [lookup])
        } else {
            try db.execute(sql: "DELETE FROM \(table) WHERE service = ? AND account = ?", arguments: [service, account])
        }
        return db.changesCount > 0
    }

    /// Every row of `table`, each read or, when it cannot be, the error
    /// naming it (sealed rows have no name before they open).
    static func fetchAll(_ db: Database, table: String, subkeys: VaultSubkeys) throws -> [Result<ItemRow, VaultError>] {
        guard try db.tableExists(table) else { return [] }
        let sealed = try isSealed(db, table: table)
        let rows = try Row.fetchAll(db, sql: "SELECT \(sealed ? sealedColumns : selectedColumns(of: table)) FROM \(table)")
        return rows.map { row in
            do throws(VaultError) {
                return .success(try ItemRow(row, table: table, subkeys: subkeys))
            } catch {
                return .failure(error)
            }
        }
    }
}
