@testable import Sesame
import Testing

/// ItemFields is the one encoding of an item's name, label, protection and
/// dates that the sealed attributes, the export file and a row's MAC share.
@Suite("ItemFields: one encoding of an item's fields")
struct ItemFieldsTests {
    static let fields = ItemFields(service: "mail", account: "owner@example.com", label: "Mail", accessibility: "whenUnlocked",
                                   accessControl: "", created: 1_700_000_000.5, modified: 1_700_000_100.25)

    @Test("D9: the fields read back as written, with a label or without")
    func roundTrip() throws {
        var unlabelled = Self.fields
        unlabelled.label = nil
        for fields in [Self.fields, unlabelled] {
            var writer = ByteWriter()
            fields.write(into: &writer)
            var reader = ByteReader(writer.bytes)
            #expect(try ItemFields.read(from: &reader) == fields)
            #expect(reader.isAtEnd)
        }
    }

    @Test("D9: the export file and the sealed attributes hold the row's fields, not a copy of each")
    func sharedByAll() {
        let row = ItemRow(id: 1, fields: Self.fields, wrappings: [], commitment: nil, ciphertext: [])
        #expect(ExportFile.Entry(fields: row.fields, value: [1]).service == "mail")
        #expect(SealedAttributes(fields: row.fields, key: nil, attributedFields: nil).fields == row.fields)
        var changed = row
        changed.modified = 1_800_000_000
        #expect(changed.fields.modified == 1_800_000_000)
    }
}
