#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Sesame

/// The collection the API names `session` (alias `session`; its wire name
/// only): items kept in memory until the service stops, never written
/// anywhere, never locked (API 0.2: "a
/// collection that is not stored on disk").
///
/// Each item counts against the connection that created it (SPEC D10: every
/// per-client resource is bounded) and against the collection's total, and
/// meets the vault's bounds on labels, attributes, content types and value
/// sizes, so the in-memory path is no way around them. An item outlives its
/// client, as the API defines the collection (until the login session, and so this
/// service, ends):
/// python-keyring stores on one connection and reads on the next. The total
/// bounds what departed clients leave behind.
actor InMemoryCollection {
    static let id = "session"
    /// The most items one connection keeps here.
    static let maximumItemsPerClient = 256
    /// The most items here in all, whichever connections made them.
    static let maximumItems = 4096

    private struct Entry {
        var item: SecretServiceItemProperties
        var secret: SecretServiceSecret
        /// The unique bus name of the connection that created it.
        let owner: String
    }

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var next = 0
    private let created = InMemoryCollection.now()
    private var modified = InMemoryCollection.now()

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

    func create(label: String, attributes: [String: String], secret: SecretServiceSecret, replacing: Bool,
                owner: String) throws -> SecretServiceItemProperties {
        try Self.check(label: label, attributes: attributes, secret: secret)
        let now = Self.now()
        if replacing, let existing = order.first(where: { entries[$0]?.item.attributes == attributes }), var entry = entries[existing] {
            entry.item.label = label
            entry.item.modified = now
            entry.secret = secret
            entries[existing] = entry
            modified = now
            return entry.item
        }
        guard entries.count < Self.maximumItems else {
            throw SecretServiceStoreError.failed("the session collection holds \(Self.maximumItems) items, its most; delete some first")
        }
        guard entries.values.count(where: { $0.owner == owner }) < Self.maximumItemsPerClient else {
            throw SecretServiceStoreError.failed("one client may keep at most \(Self.maximumItemsPerClient) items in the session collection")
        }
        next += 1
        modified = now
        let id = SecretServiceItemID(collection: Self.id, item: "s\(next)")
        let item = SecretServiceItemProperties(id: id, label: label, attributes: attributes, created: now, modified: now)
        entries[id.item] = Entry(item: item, secret: secret, owner: owner)
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
        try Self.check(label: entry.item.label, attributes: entry.item.attributes, secret: entry.secret)
        entry.item.modified = Self.now()
        entries[id.item] = entry
    }

    /// The vault's bounds: a label over 4 KiB, 999 attributes, a value over 16 MiB are refused here too.
    private static func check(label: String, attributes: [String: String], secret: SecretServiceSecret) throws {
        do {
            try AttributedItem.checkBounds(label: label, attributes: attributes, contentType: secret.contentType, value: secret.value)
        } catch {
            throw SecretServiceStoreError.failed(error.message)
        }
    }
}
