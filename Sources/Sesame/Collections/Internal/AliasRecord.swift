#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// A row of `collection_alias` (format 7, SPEC D10): found by a keyed hash
/// of its name, which is sealed with the collection it points to and bound
/// to that hash, so no row can pass for another alias.
struct AliasRecord: Sendable {
    var name: String
    var collection: String

    static let version: UInt8 = 1

    static func lookup(_ name: String, subkeys: VaultSubkeys) -> [UInt8] { subkeys.indexHash("alias", name) }

    static func associatedData(lookup: [UInt8]) -> [UInt8] {
        Envelope.associatedData(Labels.aliasRecord) { writer in writer.field(lookup) }
    }

    /// The collection `name` points to, or `nil`.
    static func fetch(_ db: Database, name: String, subkeys: VaultSubkeys) throws -> String? {
        guard try db.tableExists("collection_alias") else { return nil }
        let lookup = Self.lookup(name, subkeys: subkeys)
        guard let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM collection_alias WHERE lookup = ?", arguments: [Data(lookup)]) else {
            return nil
        }
        let record = try open(Array(sealed), lookup: lookup, subkeys: subkeys)
        guard record.name == name else {
            throw VaultError(.tampered, "The alias \"\(name.escapingControlCharacters())\" is filed under another name's lookup: the file was edited")
        }
        return record.collection
    }

    /// Points `name` at `collection`, or removes it when `nil`.
    static func store(_ db: Database, name: String, collection: String?, subkeys: VaultSubkeys) throws {
        let lookup = Self.lookup(name, subkeys: subkeys)
        guard let collection else {
            try db.execute(sql: "DELETE FROM collection_alias WHERE lookup = ?", arguments: [Data(lookup)])
            return
        }
        var writer = ByteWriter()
        writer.u8(version)
        writer.field(name)
        writer.field(collection)
        writer.raw(repeatElement(0, count: (SealedAttributes.padding - writer.bytes.count % SealedAttributes.padding) % SealedAttributes.padding))
        let sealed = try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(writer.bytes, key: subkeys.attributesKey, associatedData: associatedData(lookup: lookup)) }
        try db.execute(sql: "INSERT OR REPLACE INTO collection_alias (lookup, sealed) VALUES (?, ?)", arguments: [Data(lookup), Data(sealed)])
    }

    /// Removes every alias of `collection` (it is being deleted). Aliases
    /// are few: each is opened to learn where it points.
    static func removeAll(pointingTo collection: String, _ db: Database, subkeys: VaultSubkeys) throws {
        for row in try Row.fetchAll(db, sql: "SELECT lookup, sealed FROM collection_alias") {
            let columns = RowColumns(row: row) { name in
                VaultError(.tampered, "The \(name) column of an alias row is missing or of the wrong type: the file was edited")
            }
            let lookup = Array(try columns.value("lookup", as: Data.self))
            let record = try open(Array(try columns.value("sealed", as: Data.self)), lookup: lookup, subkeys: subkeys)
            if record.collection == collection {
                try db.execute(sql: "DELETE FROM collection_alias WHERE lookup = ?", arguments: [Data(lookup)])
            }
        }
    }

    private static func open(_ sealed: [UInt8], lookup: [UInt8], subkeys: VaultSubkeys) throws(VaultError) -> AliasRecord {
        let tampered = VaultError(.tampered, "An alias record does not open: it was edited or moved")
        guard let plaintext = Envelope.open(sealed, key: subkeys.attributesKey, associatedData: associatedData(lookup: lookup)) else { throw tampered }
        var reader = ByteReader(plaintext)
        do throws(ByteReaderError) {
            guard try reader.u8() == version else { throw ByteReaderError() }
            let name = String(decoding: try reader.field(), as: UTF8.self)
            let collection = String(decoding: try reader.field(), as: UTF8.self)
            guard reader.rest().allSatisfy({ $0 == 0 }) else { throw ByteReaderError() }
            return AliasRecord(name: name, collection: collection)
        } catch {
            throw tampered
        }
    }
}
