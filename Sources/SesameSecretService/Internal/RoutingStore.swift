import Sesame

/// The store the server talks to: the in-memory collection (wire name
/// `session`) in process, and
/// everything else the backing store's. A backing store never names a
/// collection `session` (that one is refused there).
struct RoutingStore: SecretServiceStore {
    let backing: any SecretServiceStore
    let inMemory = InMemoryCollection()

    private static func isInMemory(_ collection: String) -> Bool { collection == InMemoryCollection.id }

    func collections() async throws -> [SecretServiceCollectionProperties] {
        try await backing.collections().filter { !Self.isInMemory($0.id) } + [await inMemory.collection]
    }

    func createCollection(label: String, alias: String?) async throws -> SecretServiceCollectionProperties {
        if let alias, Self.isInMemory(alias) { return await inMemory.collection }
        return try await backing.createCollection(label: label, alias: alias)
    }

    func deleteCollection(_ collection: String) async throws {
        if Self.isInMemory(collection) { throw SecretServiceStoreError.failed("the session collection lasts as long as the server") }
        try await backing.deleteCollection(collection)
    }

    func setCollectionLabel(_ collection: String, label: String) async throws {
        if Self.isInMemory(collection) { throw SecretServiceStoreError.failed("the session collection cannot be renamed") }
        try await backing.setCollectionLabel(collection, label: label)
    }

    func readAlias(_ alias: String) async throws -> String? {
        if Self.isInMemory(alias) { return InMemoryCollection.id }
        return try await backing.readAlias(alias)
    }

    func setAlias(_ alias: String, collection: String?) async throws {
        if Self.isInMemory(alias) || collection.map(Self.isInMemory) == true {
            throw SecretServiceStoreError.failed("the session alias names the session collection only")
        }
        try await backing.setAlias(alias, collection: collection)
    }

    func items(in collection: String) async throws -> [SecretServiceItemProperties] {
        if Self.isInMemory(collection) { return await inMemory.items() }
        return try await backing.items(in: collection)
    }

    func searchItems(attributes: [String: String], in collection: String?) async throws -> [SecretServiceItemProperties] {
        if let collection, Self.isInMemory(collection) { return await inMemory.search(attributes) }
        let stored = try await backing.searchItems(attributes: attributes, in: collection).filter { !Self.isInMemory($0.id.collection) }
        return collection == nil ? stored + (await inMemory.search(attributes)) : stored
    }

    func item(_ item: SecretServiceItemID) async throws -> SecretServiceItemProperties {
        if Self.isInMemory(item.collection) { return try await inMemory.item(item) }
        return try await backing.item(item)
    }

    func createItem(in collection: String, label: String, attributes: [String: String],
                    secret: SecretServiceSecret, replacing: Bool, for caller: SecretServiceCaller) async throws -> SecretServiceItemProperties {
        if Self.isInMemory(collection) {
            return try await inMemory.create(label: label, attributes: attributes, secret: secret, replacing: replacing, owner: caller.busName)
        }
        return try await backing.createItem(in: collection, label: label, attributes: attributes, secret: secret, replacing: replacing, for: caller)
    }

    func deleteItem(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws {
        if Self.isInMemory(item.collection) { return try await inMemory.delete(item) }
        try await backing.deleteItem(item, for: caller)
    }

    func secret(of item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> SecretServiceSecret {
        if Self.isInMemory(item.collection) { return try await inMemory.secret(item) }
        return try await backing.secret(of: item, for: caller)
    }

    func setSecret(of item: SecretServiceItemID, _ secret: SecretServiceSecret, for caller: SecretServiceCaller) async throws {
        if Self.isInMemory(item.collection) { return try await inMemory.update(item, secret: secret) }
        try await backing.setSecret(of: item, secret, for: caller)
    }

    func setItemLabel(_ item: SecretServiceItemID, label: String, for caller: SecretServiceCaller) async throws {
        if Self.isInMemory(item.collection) { return try await inMemory.update(item, label: label) }
        try await backing.setItemLabel(item, label: label, for: caller)
    }

    func setItemAttributes(_ item: SecretServiceItemID, attributes: [String: String], for caller: SecretServiceCaller) async throws {
        if Self.isInMemory(item.collection) { return try await inMemory.update(item, attributes: attributes) }
        try await backing.setItemAttributes(item, attributes: attributes, for: caller)
    }

    func needsAuthentication(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> Bool {
        if Self.isInMemory(item.collection) {
            _ = try await inMemory.item(item)
            return false
        }
        return try await backing.needsAuthentication(item, for: caller)
    }

    func authenticate(_ items: [SecretServiceItemID], reason: String, for caller: SecretServiceCaller) async throws {
        let stored = items.filter { !Self.isInMemory($0.collection) }
        if !stored.isEmpty { try await backing.authenticate(stored, reason: reason, for: caller) }
    }

    func lock(_ items: [SecretServiceItemID]) async throws -> [SecretServiceItemID] {
        try await backing.lock(items.filter { !Self.isInMemory($0.collection) })
    }

    func callerLeft(_ caller: SecretServiceCaller) async {
        await backing.callerLeft(caller)
    }

    func sessionLocked() async -> [SecretServiceItemID] {
        // The session collection's items never need the owner: nothing of theirs is opened.
        await backing.sessionLocked()
    }
}
