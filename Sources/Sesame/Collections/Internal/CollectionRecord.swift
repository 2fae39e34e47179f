#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// A row of `collection` (format 7, SPEC D10): the identifier in the clear
/// (random, it names nothing), the label and dates sealed under the
/// attributes key and bound to the identifier, so a record edited or moved
/// to another identifier does not open.
struct CollectionRecord: Sendable {
    var id: String
    var label: String
    var created: Double
    var modified: Double

    static let version: UInt8 = 1

    static func associatedData(id: String) -> [UInt8] {
        Envelope.associatedData(Labels.collectionRecord) { writer in writer.field(id) }
    }

    var description: ItemCollection {
        ItemCollection(id: id, label: label, created: Date(timeIntervalSince1970: created),
                                modified: Date(timeIntervalSince1970: modified))
    }

    func seal(subkeys: VaultSubkeys) throws(VaultError) -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(Self.version)
        writer.field(label)
        writer.u64(created.bitPattern)
        writer.u64(modified.bitPattern)
        // Padded as item attributes are, so the length tells little about the label.
        writer.raw(repeatElement(0, count: (SealedAttributes.padding - writer.bytes.count % SealedAttributes.padding) % SealedAttributes.padding))
        return try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(writer.bytes, key: subkeys.attributesKey, associatedData: Self.associatedData(id: id)) }
    }

    static func open(id: String, sealed: [UInt8], subkeys: VaultSubkeys) throws(VaultError) -> CollectionRecord {
        let tampered = VaultError(.tampered, "The collection \"\(id.escapingControlCharacters())\" does not open: its record was edited or moved")
        guard let plaintext = Envelope.open(sealed, key: subkeys.attributesKey, associatedData: associatedData(id: id)) else { throw tampered }
        var reader = ByteReader(plaintext)
        do throws(ByteReaderError) {
            guard try reader.u8() == version else { throw ByteReaderError() }
            let label = String(decoding: try reader.field(), as: UTF8.self)
            let created = Double(bitPattern: try reader.u64())
            let modified = Double(bitPattern: try reader.u64())
            guard reader.rest().allSatisfy({ $0 == 0 }) else { throw ByteReaderError() }
            return CollectionRecord(id: id, label: label, created: created, modified: modified)
        } catch {
            throw tampered
        }
    }

    /// Every collection; none in a file from before format 7 (it is upgraded
    /// at its first write, never on a read).
    static func fetchAll(_ db: Database, subkeys: VaultSubkeys) throws -> [CollectionRecord] {
        guard try db.tableExists("collection") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT id, sealed FROM collection").map { row throws in
            try record(row, subkeys: subkeys)
        }
    }

    static func fetch(_ db: Database, id: String, subkeys: VaultSubkeys) throws -> CollectionRecord? {
        guard try db.tableExists("collection") else { return nil }
        return try Row.fetchOne(db, sql: "SELECT id, sealed FROM collection WHERE id = ?", arguments: [id]).map { row throws in
            try record(row, subkeys: subkeys)
        }
    }

    private static func record(_ row: Row, subkeys: VaultSubkeys) throws -> CollectionRecord {
        let columns = RowColumns(row: row) { name in
            VaultError(.tampered, "The \(name) column of a collection row is missing or of the wrong type: the file was edited")
        }
        return try open(id: try columns.value("id"), sealed: Array(try columns.value("sealed", as: Data.self)), subkeys: subkeys)
    }

    func save(_ db: Database, subkeys: VaultSubkeys) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO collection (id, sealed) VALUES (?, ?)", arguments: [id, Data(try seal(subkeys: subkeys))])
    }

    /// Marks the collection changed now (an item was added or removed).
    static func touch(_ db: Database, id: String, now: Double, subkeys: VaultSubkeys) throws {
        guard var record = try fetch(db, id: id, subkeys: subkeys) else { return }
        record.modified = max(now, record.modified)
        try record.save(db, subkeys: subkeys)
    }
}
