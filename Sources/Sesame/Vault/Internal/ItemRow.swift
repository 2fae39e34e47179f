#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// One row of the `item` table, as stored.
///
/// `mac` covers every other column, `id` included, so editing any column,
/// or moving a ciphertext or wrapping to another row, fails verification.
struct ItemRow: Sendable {
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

    static let columns = "id, service, account, label, accessibility, access_control, created, modified, wrappings, commitment, ciphertext, mac"

    init(id: Int64, service: String, account: String, label: String?, accessibility: String, accessControl: String,
         created: Double, modified: Double, wrappings: [UInt8], commitment: [UInt8]?, ciphertext: [UInt8], mac: [UInt8] = []) {
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
            ciphertext: Array(try columns.value("ciphertext", as: Data.self)), mac: Array(try columns.value("mac", as: Data.self))
        )
    }

    var name: String { "\"\(account)\" of \"\(service)\"" }

    var macInput: [UInt8] {
        Envelope.associatedData(Labels.itemRow) { writer in
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
        }
    }

    /// The AES-GCM associated data of the value: format version and the
    /// item's identity and protection, so a ciphertext only opens in its own row.
    static func associatedData(id: Int64, service: String, account: String, accessibility: String, accessControl: String) -> [UInt8] {
        Envelope.associatedData(Labels.itemValue) { writer in
            writer.u64(UInt64(bitPattern: id))
            writer.field(service)
            writer.field(account)
            writer.field(accessibility)
            writer.field(accessControl)
        }
    }

    var associatedData: [UInt8] {
        Self.associatedData(id: id, service: service, account: account, accessibility: accessibility, accessControl: accessControl)
    }

    var arguments: StatementArguments {
        [id, service, account, label, accessibility, accessControl, created, modified,
         Data(wrappings), commitment.map { Data($0) }, Data(ciphertext), Data(mac)]
    }

    func insert(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO item (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: arguments)
    }

    func replace(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id])
        try insert(db)
    }

    static func fetch(_ db: Database, service: String, account: String) throws -> Row? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM item WHERE service = ? AND account = ?", arguments: [service, account])
    }
}
