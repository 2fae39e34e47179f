#if canImport(SesameSecretService)
import Sesame
import SesameSecretService

/// A `SecretServiceStore` in memory, for the Secret Service server's tests
/// and a library user's: collections, aliases, items, and access control you
/// steer. Starts with one collection, `login`, aliased `default`, as
/// gnome-keyring's first run leaves it.
///
/// Items created while ``newItemsNeedAuthentication`` is set (or marked with
/// ``requireAuthentication(_:)``) report locked until ``authenticate(_:reason:for:)``
/// succeeds, and then only for the caller it succeeded for (SPEC D10); its
/// outcome is ``authenticateOutcome``, and every reason it was given is kept
/// in ``reasons``.
public actor InMemorySecretServiceStore: SecretServiceStore {
    /// What ``authenticate(_:reason:for:)`` does.
    public enum AuthenticateOutcome: Sendable {
        /// The owner passes: the items open.
        case succeed
        /// The owner cancels: throws `CancellationError`.
        case cancel
        /// Waits until the calling task is cancelled (a Dismiss or a client
        /// leaving), then throws `CancellationError`.
        case waitForCancellation
    }

    private struct Entry {
        var item: SecretServiceItemProperties
        var secret: SecretServiceSecret
        var needsOwner: Bool
        /// The unique bus names this item is open for.
        var openFor: Set<String>
    }

    private var collectionList: [SecretServiceCollectionProperties]
    private var aliases: [String: String] = ["default": "login"]
    private var entries: [SecretServiceItemID: Entry] = [:]
    private var order: [SecretServiceItemID] = []
    private var nextID = 0
    private var clock: UInt64 = 1_700_000_000

    /// Items created from now on need authentication.
    public var newItemsNeedAuthentication = false
    /// See ``AuthenticateOutcome``.
    public var authenticateOutcome: AuthenticateOutcome = .succeed
    /// Every reason ``authenticate(_:reason:for:)`` was given, in order.
    public private(set) var reasons: [String] = []
    /// How many ``authenticate(_:reason:for:)`` calls ended cancelled.
    public private(set) var cancellations = 0
    /// The callers ``secret(of:for:)`` served, in order.
    public private(set) var readers: [SecretServiceCaller] = []
    /// The callers ``callerLeft(_:)`` was told of, in order.
    public private(set) var callersLeft: [SecretServiceCaller] = []
    /// How many ``authenticate(_:reason:for:)`` calls have not returned.
    public private(set) var runningAuthentications = 0
    /// How many ``item(_:)`` calls wait for ``releaseItemLookups()``.
    public var heldItemLookups: Int { heldLookups?.count ?? 0 }
    private var heldLookups: [CheckedContinuation<Void, Never>]?

    public init() {
        collectionList = [SecretServiceCollectionProperties(id: "login", label: "Login", created: 1_700_000_000, modified: 1_700_000_000)]
    }

    /// - Parameter value: Whether items created from now on need authentication.
    public func setNewItemsNeedAuthentication(_ value: Bool) { newItemsNeedAuthentication = value }

    /// - Parameter outcome: What ``authenticate(_:reason:for:)`` does from now on.
    public func setAuthenticateOutcome(_ outcome: AuthenticateOutcome) { authenticateOutcome = outcome }

    /// Makes ``item(_:)`` wait until ``releaseItemLookups()``, so a test can
    /// act while the server is suspended in a lookup.
    public func holdItemLookups() {
        if heldLookups == nil { heldLookups = [] }
    }

    /// Lets every held ``item(_:)`` call, and those after it, go on.
    public func releaseItemLookups() {
        let held = heldLookups ?? []
        heldLookups = nil
        for lookup in held { lookup.resume() }
    }

    /// Makes an existing item need authentication (and locks it).
    /// - Parameter item: Which.
    public func requireAuthentication(_ item: SecretServiceItemID) {
        entries[item]?.needsOwner = true
        entries[item]?.openFor = []
    }

    private func tick() -> UInt64 {
        clock += 1
        return clock
    }

    public func collections() async throws -> [SecretServiceCollectionProperties] { collectionList }

    public func createCollection(label: String, alias: String?) async throws -> SecretServiceCollectionProperties {
        nextID += 1
        let now = tick()
        let collection = SecretServiceCollectionProperties(id: "c\(nextID)", label: label, created: now, modified: now)
        collectionList.append(collection)
        if let alias { aliases[alias] = collection.id }
        return collection
    }

    public func deleteCollection(_ collection: String) async throws {
        try requireCollection(collection)
        collectionList.removeAll { $0.id == collection }
        order.removeAll { $0.collection == collection }
        entries = entries.filter { $0.key.collection != collection }
        aliases = aliases.filter { $0.value != collection }
    }

    public func setCollectionLabel(_ collection: String, label: String) async throws {
        guard let index = collectionList.firstIndex(where: { $0.id == collection }) else { throw SecretServiceStoreError.noSuchCollection(collection) }
        collectionList[index].label = label
        collectionList[index].modified = tick()
    }

    public func readAlias(_ alias: String) async throws -> String? { aliases[alias] }

    public func setAlias(_ alias: String, collection: String?) async throws {
        if let collection { try requireCollection(collection) }
        aliases[alias] = collection
    }

    public func items(in collection: String) async throws -> [SecretServiceItemProperties] {
        try requireCollection(collection)
        return order.filter { $0.collection == collection }.compactMap { entries[$0]?.item }
    }

    public func searchItems(attributes: [String: String], in collection: String?) async throws -> [SecretServiceItemProperties] {
        if let collection { try requireCollection(collection) }
        return order.compactMap { entries[$0]?.item }.filter { item in
            (collection == nil || item.id.collection == collection)
                && attributes.allSatisfy { item.attributes[$0.key] == $0.value }
        }
    }

    public func item(_ item: SecretServiceItemID) async throws -> SecretServiceItemProperties {
        if heldLookups != nil {
            await withCheckedContinuation { heldLookups?.append($0) }
        }
        guard let entry = entries[item] else { throw SecretServiceStoreError.noSuchItem(item) }
        return entry.item
    }

    public func createItem(in collection: String, label: String, attributes: [String: String],
                           secret: SecretServiceSecret, replacing: Bool, for caller: SecretServiceCaller) async throws -> SecretServiceItemProperties {
        try requireCollection(collection)
        let now = tick()
        if replacing, let existing = order.first(where: { $0.collection == collection && entries[$0]?.item.attributes == attributes }),
           var entry = entries[existing] {
            if entry.needsOwner && !entry.openFor.contains(caller.busName) { throw SecretServiceStoreError.locked(existing) }
            entry.item.label = label
            entry.item.modified = now
            entry.secret = secret
            entries[existing] = entry
            return entry.item
        }
        nextID += 1
        let id = SecretServiceItemID(collection: collection, item: "i\(nextID)")
        let item = SecretServiceItemProperties(id: id, label: label, attributes: attributes, created: now, modified: now)
        entries[id] = Entry(item: item, secret: secret, needsOwner: newItemsNeedAuthentication, openFor: [])
        order.append(id)
        return item
    }

    public func deleteItem(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws {
        guard entries.removeValue(forKey: item) != nil else { throw SecretServiceStoreError.noSuchItem(item) }
        order.removeAll { $0 == item }
    }

    public func secret(of item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> SecretServiceSecret {
        let entry = try unlockedEntry(item, for: caller)
        readers.append(caller)
        return entry.secret
    }

    public func setSecret(of item: SecretServiceItemID, _ secret: SecretServiceSecret, for caller: SecretServiceCaller) async throws {
        _ = try unlockedEntry(item, for: caller)
        entries[item]?.secret = secret
        entries[item]?.item.modified = tick()
    }

    public func setItemLabel(_ item: SecretServiceItemID, label: String, for caller: SecretServiceCaller) async throws {
        _ = try unlockedEntry(item, for: caller)
        entries[item]?.item.label = label
        entries[item]?.item.modified = tick()
    }

    public func setItemAttributes(_ item: SecretServiceItemID, attributes: [String: String], for caller: SecretServiceCaller) async throws {
        _ = try unlockedEntry(item, for: caller)
        entries[item]?.item.attributes = attributes
        entries[item]?.item.modified = tick()
    }

    public func needsAuthentication(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> Bool {
        guard let entry = entries[item] else { throw SecretServiceStoreError.noSuchItem(item) }
        return entry.needsOwner && !entry.openFor.contains(caller.busName)
    }

    public func authenticate(_ items: [SecretServiceItemID], reason: String, for caller: SecretServiceCaller) async throws {
        reasons.append(reason)
        runningAuthentications += 1
        defer { runningAuthentications -= 1 }
        switch authenticateOutcome {
        case .succeed:
            for item in items where entries[item] != nil { entries[item]?.openFor.insert(caller.busName) }
        case .cancel:
            cancellations += 1
            throw CancellationError()
        case .waitForCancellation:
            while !Task.isCancelled { try? await Task.sleep(nanoseconds: 10_000_000) }
            cancellations += 1
            throw CancellationError()
        }
    }

    public func lock(_ items: [SecretServiceItemID]) async throws -> [SecretServiceItemID] {
        var locked: [SecretServiceItemID] = []
        for item in items {
            guard let entry = entries[item] else { throw SecretServiceStoreError.noSuchItem(item) }
            if entry.needsOwner {
                entries[item]?.openFor = []
                locked.append(item)
            }
        }
        return locked
    }

    public func sessionLocked() async -> [SecretServiceItemID] {
        let opened = entries.filter { !$0.value.openFor.isEmpty }.keys
        for item in opened { entries[item]?.openFor = [] }
        return Array(opened)
    }

    public func callerLeft(_ caller: SecretServiceCaller) async {
        callersLeft.append(caller)
        for item in entries.keys { entries[item]?.openFor.remove(caller.busName) }
    }

    private func requireCollection(_ collection: String) throws {
        guard collectionList.contains(where: { $0.id == collection }) else { throw SecretServiceStoreError.noSuchCollection(collection) }
    }

    private func unlockedEntry(_ item: SecretServiceItemID, for caller: SecretServiceCaller) throws -> Entry {
        guard let entry = entries[item] else { throw SecretServiceStoreError.noSuchItem(item) }
        if entry.needsOwner && !entry.openFor.contains(caller.busName) { throw SecretServiceStoreError.locked(item) }
        return entry
    }
}
#endif
