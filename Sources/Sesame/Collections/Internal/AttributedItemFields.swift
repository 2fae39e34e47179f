/// What an attributed item has beyond an ordinary item (SPEC D10): its
/// lookup attributes and content type, sealed with the row's other
/// attributes (``SealedAttributes`` version 2) and covered by its MAC.
struct AttributedItemFields: Sendable, Equatable {
    var contentType: String
    var attributes: [String: String]

    /// The fields in a fixed order, for the sealed block and the MAC: a
    /// dictionary's own order differs from run to run.
    func write(into writer: inout ByteWriter) {
        writer.field(contentType)
        writer.u32(UInt32(attributes.count))
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            writer.field(name)
            writer.field(value)
        }
    }

    /// Reads what ``write(into:)`` wrote; a repeated name means the bytes
    /// were not written by Sesame.
    static func read(from reader: inout ByteReader) throws(ByteReaderError) -> AttributedItemFields {
        let contentType = String(decoding: try reader.field(), as: UTF8.self)
        let count = try reader.u32()
        // A count beyond the bytes left fails at the first short read: nothing is reserved from it.
        var attributes: [String: String] = [:]
        for _ in 0..<count {
            let name = String(decoding: try reader.field(), as: UTF8.self)
            let value = String(decoding: try reader.field(), as: UTF8.self)
            guard attributes.updateValue(value, forKey: name) == nil else { throw ByteReaderError() }
        }
        return AttributedItemFields(contentType: contentType, attributes: attributes)
    }
}
