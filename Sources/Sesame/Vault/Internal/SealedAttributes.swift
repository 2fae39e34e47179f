/// What a row of format 6 keeps sealed in its `attributes` column (SPEC D9):
/// service, account, label, accessibility, access control, dates and, for
/// a key, its algorithm and public key; from format 7, for a Secret
/// Service item (SPEC D10), its content type and attributes too (encoding
/// version 2; every other row keeps version 1, byte for byte). From
/// version 3, an attributed item that records an app (SPEC D13) seals it
/// too. A copied file shows none of them, as the keychain seals its
/// attributes.
///
/// The plaintext, by version (`field` is a big-endian u32 length, then the
/// bytes; `token` a field holding ``AppIdentity/token``):
///
/// ```
/// 1: u8 1 ‖ ItemFields ‖ u8 hasKey [‖ field algorithm ‖ field publicKey ‖ u8 hasConstraints [‖ field constraints]]
/// 2: u8 2 ‖ … as 1 … ‖ field contentType ‖ u32 n ‖ n × (field name ‖ field value), names ascending
/// 3: u8 3 ‖ … as 2 … ‖ u8 hasApp [‖ token app] ‖ u32 m ‖ m × token, ascending by bytes, m ≤ 64
/// ```
///
/// then zeros up to a multiple of ``padding``. Version 3 is written only
/// for an item that records an app or allows one, and always records one
/// or the other; a Sesame from before it finds version 3 unknown, reads the
/// row as tampered and never serves it: the item fails closed rather than
/// be handed to an app its owner did not allow.
///
/// Sealed through the one ``Envelope`` under the master key's attributes
/// key, bound to the row's table and id (a sealed block moved to another
/// row does not open). The plaintext is padded to a multiple of
/// ``padding`` bytes so that its length tells little about the names.
struct SealedAttributes {
    /// The item's name, label, protection and dates.
    var fields: ItemFields
    /// A key's algorithm, public key and constraints.
    var key: ItemRow.KeyColumns?
    /// A Secret Service item's attributes and content type (SPEC D10).
    var attributedFields: AttributedItemFields?

    /// The encoding's version, first in the plaintext: 1, or 2 when a
    /// Secret Service block follows (format 7), or 3 when that block
    /// records apps (SPEC D13), so that every row written before keeps its
    /// bytes.
    static let version: UInt8 = 1
    static let attributedItemVersion: UInt8 = 2
    static let appsVersion: UInt8 = 3
    static let padding = 64

    static func associatedData(id: Int64, table: String) -> [UInt8] {
        Envelope.associatedData(table == "key" ? Labels.keyAttributes : Labels.itemAttributes) { writer in
            writer.u64(UInt64(bitPattern: id))
        }
    }

    /// The sealed attributes of `row`.
    static func seal(_ row: ItemRow, subkeys: VaultSubkeys) throws(VaultError) -> [UInt8] {
        var writer = ByteWriter()
        writer.u8(row.attributedFields.map { $0.recordsApps ? appsVersion : attributedItemVersion } ?? version)
        row.fields.write(into: &writer)
        if let key = row.key {
            writer.u8(1); writer.field(key.algorithm); writer.field(key.publicKey)
            // The key's constraints (SPEC D8), sealed again under their own key.
            if let constraints = key.constraints { writer.u8(1); writer.field(constraints) } else { writer.u8(0) }
        } else {
            writer.u8(0)
        }
        row.attributedFields?.write(into: &writer)
        let length = writer.bytes.count
        writer.raw(repeatElement(0, count: (padding - length % padding) % padding))
        return try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(writer.bytes, key: subkeys.attributesKey, associatedData: associatedData(id: row.id, table: row.table)) }
    }

    /// Opens what ``seal(_:subkeys:)`` made for row `id` of `table`.
    ///
    /// - Throws: ``VaultError`` `tampered` when it does not open (edited,
    ///   or moved from another row) or does not parse.
    static func open(_ sealed: [UInt8], id: Int64, table: String, subkeys: VaultSubkeys) throws(VaultError) -> SealedAttributes {
        let tampered = VaultError(.tampered, "The attributes of a \(table) row (id \(id)) do not open: they were edited or moved from another row")
        guard let plaintext = Envelope.open(sealed, key: subkeys.attributesKey, associatedData: associatedData(id: id, table: table)) else {
            throw tampered
        }
        guard let attributes = try? parse(plaintext, table: table) else { throw tampered }
        return attributes
    }

    private static func parse(_ plaintext: [UInt8], table: String) throws(ByteReaderError) -> SealedAttributes {
        var reader = ByteReader(plaintext)
        do {
            let encoding = try reader.u8()
            guard encoding == version || encoding == attributedItemVersion || encoding == appsVersion else { throw ByteReaderError() }
            let fields = try ItemFields.read(from: &reader)
            var key: ItemRow.KeyColumns?
            if try reader.u8() == 1 {
                key = ItemRow.KeyColumns(algorithm: String(decoding: try reader.field(), as: UTF8.self), publicKey: try reader.field())
                key?.constraints = try reader.u8() == 1 ? try reader.field() : nil
            }
            // Only items have Secret Service fields.
            let attributed = encoding != version
            let attributedFields = attributed && table == "item" ? try AttributedItemFields.read(from: &reader, apps: encoding == appsVersion) : nil
            // Only a key's attributes carry key columns, and only in the key table.
            guard (key != nil) == (table == "key"), (attributedFields != nil) == attributed,
                  reader.rest().allSatisfy({ $0 == 0 }) else { throw ByteReaderError() }
            return SealedAttributes(fields: fields, key: key, attributedFields: attributedFields)
        }
    }
}
