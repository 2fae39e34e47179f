#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Sesame

/// The `session` collection (alias `session`): items that live only as long
/// as the server process, never written anywhere, never locked (API 0.2:
/// "a collection that is not stored on disk").
actor SessionCollection {
    static let id = "session"

    private struct Entry {
        var item: SecretServiceItemProperties
        var secret: SecretServiceSecret
    }

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var next = 0
    private let created = SessionCollection.now()
    private var modified = SessionCollection.now()

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UInt64(max(0, spec.tv_sec))
    }

    var collection: SecretServiceCollectionProperties {
        SecretServiceCollectionProperties(id: Self.id, label: "Session", created: created, modified: modified)
    }

    func items() -> [SecretServiceItemProperties] { order.compactMap { entries[$0]?.item } }

    func search(_ attributes: [String: String]) -> [SecretServiceItemProperties] {
        items().filter { item in attributes.allSatisfy { item.attributes[$0.key] == $0.value } }
    }

    func item(_ id: SecretServiceItemID) throws -> SecretServiceItemProperties {
        guard let entry = entries[id.item] else { throw SecretServiceStoreError.noSuchItem(id) }
        return entry.item
    }

    func create(label: String, attributes: [String: String], secret: SecretServiceSecret, replacing: Bool) -> SecretServiceItemProperties {
        let now = Self.now()
        modified = now
        if replacing, let existing = order.first(where: { entries[$0]?.item.attributes == attributes }), var entry = entries[existing] {
            entry.item.label = label
            entry.item.modified = now
            entry.secret = secret
            entries[existing] = entry
            return entry.item
        }
        next += 1
        let id = SecretServiceItemID(collection: Self.id, item: "s\(next)")
        let item = SecretServiceItemProperties(id: id, label: label, attributes: attributes, created: now, modified: now)
        entries[id.item] = Entry(item: item, secret: secret)
        order.append(id.item)
        return item
    }

    func delete(_ id: SecretServiceItemID) throws {
        guard entries.removeValue(forKey: id.item) != nil else { throw SecretServiceStoreError.noSuchItem(id) }
        order.removeAll { $0 == id.item }
        modified = Self.now()
    }

    func secret(_ id: SecretServiceItemID) throws -> SecretServiceSecret {
        guard let entry = entries[id.item] else { throw SecretServiceStoreError.noSuchItem(id) }
        return entry.secret
    }

    func update(_ id: SecretServiceItemID, label: String? = nil, attributes: [String: String]? = nil, secret: SecretServiceSecret? = nil) throws {
        guard var entry = entries[id.item] else { throw SecretServiceStoreError.noSuchItem(id) }
        if let label { entry.item.label = label }
        if let attributes { entry.item.attributes = attributes }
        if let secret { entry.secret = secret }
        entry.item.modified = Self.now()
        entries[id.item] = entry
    }
}
