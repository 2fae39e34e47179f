/// An item's fields: its name, label, protection and dates, as one value
/// that the row (``ItemRow``), its sealed attributes (``SealedAttributes``,
/// SPEC D9) and the export file (``ExportFile/Entry``) all hold, so that
/// they are listed once.
///
/// Every encoding of them (the sealed attributes, the export file, a row's
/// MAC) writes them in the same order through ``write(into:)``, so each
/// stored or exported byte stays what it was.
struct ItemFields: Sendable, Equatable {
    /// The item's service.
    var service: String
    /// The item's account (a key's name).
    var account: String
    /// The label shown for the item, if any.
    var label: String?
    /// An ``ItemAccessibility`` raw value.
    var accessibility: String
    /// An ``AccessControl`` canonical encoding.
    var accessControl: String
    /// Seconds since 1970 when the item was created.
    var created: Double
    /// Seconds since 1970 when the item was last changed.
    var modified: Double

    /// Appends the fields: service, account, a present flag and the label,
    /// accessibility, access control, and the dates' bit patterns.
    func write(into writer: inout ByteWriter) {
        writer.field(service)
        writer.field(account)
        if let label { writer.u8(1); writer.field(label) } else { writer.u8(0) }
        writer.field(accessibility)
        writer.field(accessControl)
        writer.u64(created.bitPattern)
        writer.u64(modified.bitPattern)
    }

    /// Reads what ``write(into:)`` wrote.
    static func read(from reader: inout ByteReader) throws(ByteReaderError) -> ItemFields {
        let service = String(decoding: try reader.field(), as: UTF8.self)
        let account = String(decoding: try reader.field(), as: UTF8.self)
        let label = try reader.u8() == 1 ? String(decoding: try reader.field(), as: UTF8.self) : nil
        return ItemFields(
            service: service, account: account, label: label,
            accessibility: String(decoding: try reader.field(), as: UTF8.self),
            accessControl: String(decoding: try reader.field(), as: UTF8.self),
            created: Double(bitPattern: try reader.u64()), modified: Double(bitPattern: try reader.u64()))
    }
}
