/// What an attributed item has beyond an ordinary item (SPEC D10): its
/// lookup attributes and content type and, from ``SealedAttributes``
/// version 3, the app that made it and the apps its owner allowed (SPEC
/// D13), all sealed with the row's other attributes and covered by its MAC
/// (SPEC D8: a constraint is stored with what it constrains).
struct AttributedItemFields: Sendable, Equatable {
    var contentType: String
    var attributes: [String: String]
    /// The app that created or last replaced the item; `nil` when none was
    /// recorded (every item from before version 3).
    var app: AppIdentity? = nil
    /// The apps the owner allowed always, sorted and unique.
    var allowedApps: [AppIdentity] = []

    /// The most apps an item may allow: the list is sealed in the row and
    /// read with it, so it stays small; an owner who allows more wants the
    /// item open to every app (no recorded app).
    static let maximumAllowedApps = 64

    /// Whether the fields need version 3: only then, so that every row
    /// without an app keeps its bytes and its MAC.
    var recordsApps: Bool { app != nil || !allowedApps.isEmpty }

    /// The fields in a fixed order, for the sealed block and the MAC: a
    /// dictionary's own order differs from run to run. The app block
    /// follows only when ``recordsApps``.
    func write(into writer: inout ByteWriter) {
        writer.field(contentType)
        writer.u32(UInt32(attributes.count))
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            writer.field(name)
            writer.field(value)
        }
        guard recordsApps else { return }
        if let app { writer.u8(1); writer.field(app.token) } else { writer.u8(0) }
        // Ordered by the tokens' bytes, a frozen order: the kinds' declaration order may change.
        let tokens = allowedApps.map { Array($0.token.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        writer.u32(UInt32(tokens.count))
        for token in tokens { writer.field(token) }
    }

    /// Reads what ``write(into:)`` wrote, the app block when `apps`; a
    /// repeated name, an unknown app kind, an unordered or oversized list,
    /// or an app block recording nothing means the bytes were not written
    /// by Sesame.
    static func read(from reader: inout ByteReader, apps: Bool) throws(ByteReaderError) -> AttributedItemFields {
        let contentType = String(decoding: try reader.field(), as: UTF8.self)
        let count = try reader.u32()
        // A count beyond the bytes left fails at the first short read: nothing is reserved from it.
        var attributes: [String: String] = [:]
        for _ in 0..<count {
            let name = String(decoding: try reader.field(), as: UTF8.self)
            let value = String(decoding: try reader.field(), as: UTF8.self)
            guard attributes.updateValue(value, forKey: name) == nil else { throw ByteReaderError() }
        }
        var fields = AttributedItemFields(contentType: contentType, attributes: attributes)
        guard apps else { return fields }
        switch try reader.u8() {
        case 0: break
        case 1: fields.app = try readApp(from: &reader)
        default: throw ByteReaderError()
        }
        let allowed = try reader.u32()
        guard allowed <= maximumAllowedApps else { throw ByteReaderError() }
        var previous: [UInt8]?
        for _ in 0..<allowed {
            let app = try readApp(from: &reader)
            let token = Array(app.token.utf8)
            // Strictly ascending: one encoding per list, no repeats.
            if let previous, !previous.lexicographicallyPrecedes(token) { throw ByteReaderError() }
            previous = token
            fields.allowedApps.append(app)
        }
        fields.allowedApps.sort()
        // Version 3 with nothing in it would be a second encoding of version 2.
        guard fields.recordsApps else { throw ByteReaderError() }
        return fields
    }

    /// One token, exactly as ``AppIdentity/token`` spells it.
    private static func readApp(from reader: inout ByteReader) throws(ByteReaderError) -> AppIdentity {
        let bytes = try reader.field()
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes, let app = AppIdentity(token: text), app.token == text else { throw ByteReaderError() }
        return app
    }

    /// Refuses an app that cannot be stored: one whose ``AppIdentity/token``
    /// would read back as another app (an executable named by a relative
    /// path, which a token cannot tell from another kind's).
    static func check(app: AppIdentity, what: String) throws(VaultError) {
        guard AppIdentity(token: app.token) == app else {
            throw VaultError(.invalidArgument, "\(what) \(app) cannot be recorded: an executable is named by its absolute path")
        }
    }

    /// `apps` sorted and unique, each checked, refused beyond
    /// ``maximumAllowedApps``.
    static func allowed(_ apps: some Sequence<AppIdentity>) throws(VaultError) -> [AppIdentity] {
        let unique = Set(apps).sorted()
        for app in unique { try check(app: app, what: "The app") }
        guard unique.count <= maximumAllowedApps else {
            throw VaultError(.invalidArgument, "An item may allow at most \(maximumAllowedApps) apps, not \(unique.count); "
                + "remove one first, or clear the item's app to open it to every app")
        }
        return unique
    }
}
