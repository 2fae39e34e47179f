#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// One row of the `item` table, or of the `key` table (SPEC D7), as stored.
///
/// `mac` covers every other column, `id` included, so editing any column,
/// or moving a ciphertext or wrapping to another row, fails verification.
/// A key row is an item row whose value is a private key, plus its
/// algorithm and public key; its labels differ from an item's in the MAC,
/// the wrappings and the value, so no key row can pass for an item (whose
/// value `read` would return) nor the other way round.
struct ItemRow: Sendable {
    /// What only a key row has.
    struct KeyColumns: Sendable, Equatable {
        /// A ``KeyAlgorithm`` raw value.
        var algorithm: String
        /// The public key's raw representation.
        var publicKey: [UInt8]
        /// The sealed ``KeyConstraintsRecord`` (SPEC D8), or `nil` for a key
        /// without constraints. Covered by the row's MAC only when present,
        /// so rows written before format 5 keep their MAC, and emptying the
        /// column of a constrained key fails the row's integrity check.
        var constraints: [UInt8]? = nil
    }

    var id: Int64
    var service: String
    var account: String
    var label: String?
    var accessibility: String
    var accessControl: String
    var created: Double
    var modified: Double
    var wrappings: [UInt8]
    var commitment: [UInt8]?
    var ciphertext: [UInt8]
    var mac: [UInt8]
    /// Set for a row of the `key` table.
    var key: KeyColumns?

    static let columns = "id, service, account, label, accessibility, access_control, created, modified, wrappings, commitment, ciphertext, mac"
    static let keyTableColumns = columns + ", algorithm, public_key"

    /// The table the row lives in.
    var table: String { key == nil ? "item" : "key" }

    static func columns(of table: String) -> String { table == "key" ? keyTableColumns : columns }

    /// What a `SELECT` reads: the key table's `constraints` column exists
    /// only from format 5 on (a vault is migrated at its first write, not
    /// when it is read), so its rows are read by name whatever they have.
    static func selectedColumns(of table: String) -> String { table == "key" ? "*" : columns }

    init(id: Int64, service: String, account: String, label: String?, accessibility: String, accessControl: String,
         created: Double, modified: Double, wrappings: [UInt8], commitment: [UInt8]?, ciphertext: [UInt8], mac: [UInt8] = [],
         key: KeyColumns? = nil) {
        self.id = id
        self.service = service
        self.account = account
        self.label = label
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.created = created
        self.modified = modified
        self.wrappings = wrappings
        self.commitment = commitment
        self.ciphertext = ciphertext
        self.mac = mac
        self.key = key
    }

    /// Reads a row; a column of the wrong type means the file was edited.
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
        writer.field(service)
        writer.field(account)
        if let label { writer.u8(1); writer.field(label) } else { writer.u8(0) }
        writer.field(accessibility)
        writer.field(accessControl)
        writer.u64(created.bitPattern)
        writer.u64(modified.bitPattern)
        writer.field(wrappings)
        if let commitment { writer.u8(1); writer.field(commitment) } else { writer.u8(0) }
        writer.field(ciphertext)
        if let key {
            writer.field(key.algorithm)
            writer.field(key.publicKey)
            if let constraints = key.constraints { writer.u8(1); writer.field(constraints) }
        }
        }
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

    var arguments: StatementArguments {
        var arguments: StatementArguments = [id, service, account, label, accessibility, accessControl, created, modified,
                                             Data(wrappings), commitment.map { Data($0) }, Data(ciphertext), Data(mac)]
        if let key { arguments += [key.algorithm, Data(key.publicKey)] }
        if let constraints = key?.constraints { arguments += [Data(constraints)] }
        return arguments
    }

    func insert(_ db: Database) throws {
        // Written only when present, so a vault not yet migrated to format 5 takes unconstrained keys.
        let columns = Self.columns(of: table) + (key?.constraints == nil ? "" : ", constraints")
        let placeholders = Array(repeating: "?", count: columns.split(separator: ",").count).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO \(table) (\(columns)) VALUES (\(placeholders))", arguments: arguments)
    }

    func replace(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id])
        try insert(db)
    }

    /// The row of `service`/`account` in `table` (`item` or `key`); `nil`
    /// when there is none, or no `key` table yet (a vault from before format 3).
    static func fetch(_ db: Database, table: String = "item", service: String, account: String) throws -> Row? {
        if table == "key", try !db.tableExists("key") { return nil }
        // Cached: a point read is a few microseconds, parsing the query again would double it.
        let statement = try db.cachedStatement(sql: "SELECT \(selectedColumns(of: table)) FROM \(table) WHERE service = ? AND account = ?")
        return try Row.fetchOne(statement, arguments: [service, account])
    }
}
