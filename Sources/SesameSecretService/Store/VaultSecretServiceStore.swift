#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The vault as the Secret Service's store (SPEC D10): collections, aliases
/// and items are the vault's own collections and attributed items, so what
/// libsecret stores `sesame ls` and `sesame get` see, sealed as every item
/// is (D9). gnome-keyring's conventions are kept here, not in the vault:
/// the ``defaultAlias`` always resolves, to a collection labelled
/// ``defaultCollectionLabel`` made on first use.
///
/// **Locked, for the caller** (SPEC D10). An item is locked while its access
/// control is not satisfied for the *calling client* and that item.
/// ``authenticate(_:reason:for:)`` (a client's `Prompt`) runs the items'
/// access controls on a new context; the opening it makes belongs to that
/// client's unique bus name and to exactly the items the prompt named, and
/// lasts `unlockDuration` (at most 300 s, the reuse window's bound, SPEC
/// A6/F): the burst of reads that follows its `Unlock` needs no second
/// touch. The same context never serves another item, even one of the same
/// access control, and every other client still sees the items locked and
/// needs its own `Unlock` (unlike gnome-keyring, where one unlocked
/// collection is open to every program of the session). An item a client
/// did not open is judged on a context without a reuse window, so the
/// owner's `--reuse` shortens a prompt (its scan may be skipped) but never
/// replaces it. The opening ends when its duration does, when the client
/// leaves the bus (``callerLeft(_:)``), or for every client at once on
/// ``lock(_:)``.
public actor VaultSecretServiceStore: SecretServiceStore {
    private let vault: Vault
    private let defaultAccessControl: AccessControl
    private let unlockDuration: Duration
    private let makeContext: @Sendable (SecretServiceCaller?) -> AuthenticationContext
    /// What a client's Unlock opened: exactly these items, on this context, until then.
    private struct Opening {
        let context: AuthenticationContext
        let items: Set<SecretServiceItemID>
        let until: ContinuousClock.Instant
    }

    /// Each client's openings, by unique bus name, oldest first.
    private var openings: [String: [Opening]] = [:]

    /// The most openings one client holds at once; its oldest ends first.
    public static let maximumOpeningsPerClient = 16

    /// The alias every Secret Service client resolves first; it always
    /// resolves (``readAlias(_:)`` makes its collection when it points nowhere).
    public static let defaultAlias = "default"

    /// The label of the collection made for ``defaultAlias``, as
    /// gnome-keyring names its login keyring.
    public static let defaultCollectionLabel = "Login"

    /// The longest an `Unlock` lasts: the reuse window's bound (SPEC F).
    public static let maximumUnlockDuration = Duration.seconds(300)

    /// - Parameters:
    ///   - vault: An open vault.
    ///   - defaultAccessControl: What `CreateItem` gives a new item: the
    ///     Secret Service has no way for a client to ask for one, so the
    ///     owner chooses (`sesame secret-service --default-access`).
    ///   - unlockDuration: How long an `Unlock` opens its items; clamped
    ///     to 1 s … ``maximumUnlockDuration``.
    ///   - makeContext: A new authentication context whose presenter shows
    ///     the prompts (pinentry, a notification, a terminal).
    public init(
        vault: Vault, defaultAccessControl: AccessControl, unlockDuration: Duration = .seconds(60),
        makeContext: @escaping @Sendable () -> AuthenticationContext
    ) {
        self.init(vault: vault, defaultAccessControl: defaultAccessControl, unlockDuration: unlockDuration, contextForCaller: { _ in makeContext() })
    }

    /// A store that asks each caller where that caller is (its terminal,
    /// else a dialog, else nobody): a shared service never prompts on a
    /// terminal it did not get from the asking client.
    ///
    /// - Parameters:
    ///   - vault: An open vault.
    ///   - defaultAccessControl: What `CreateItem` gives a new item.
    ///   - unlockDuration: How long an `Unlock` opens its items.
    ///   - contextForCaller: A new context whose presenter reaches the
    ///     caller (`nil`: no particular caller), or that refuses
    ///     interaction saying nobody could be asked.
    public init(
        vault: Vault, defaultAccessControl: AccessControl, unlockDuration: Duration = .seconds(60),
        contextForCaller: @escaping @Sendable (SecretServiceCaller?) -> AuthenticationContext
    ) {
        self.vault = vault
        self.defaultAccessControl = defaultAccessControl
        self.unlockDuration = min(max(unlockDuration, .seconds(1)), Self.maximumUnlockDuration)
        self.makeContext = contextForCaller
    }

    // MARK: Collections and aliases

    public func collections() async throws -> [SecretServiceCollectionProperties] {
        try await mapping { () async throws(VaultError) in try await vault.collections.list().map(Self.properties) }
    }

    public func createCollection(label: String, alias: String?) async throws -> SecretServiceCollectionProperties {
        try await mapping { () async throws(VaultError) in Self.properties(try await vault.collections.create(label: label, alias: alias)) }
    }

    public func deleteCollection(_ collection: String) async throws {
        try await mapping(collection: collection) { () async throws(VaultError) in try await vault.collections.delete(collection) }
    }

    public func setCollectionLabel(_ collection: String, label: String) async throws {
        try await mapping(collection: collection) { () async throws(VaultError) in try await vault.collections.setLabel(label, of: collection) }
    }

    public func readAlias(_ alias: String) async throws -> String? {
        try await mapping { () async throws(VaultError) in
            // As gnome-keyring creates its login keyring: `default` never points nowhere.
            guard alias == Self.defaultAlias else { return try await vault.collections.alias(named: alias) }
            return try await vault.collections.alias(named: alias, creatingCollectionLabelled: Self.defaultCollectionLabel)
        }
    }

    public func setAlias(_ alias: String, collection: String?) async throws {
        try await mapping(collection: collection) { () async throws(VaultError) in try await vault.collections.setAlias(alias, to: collection) }
    }

    // MARK: Items

    public func items(in collection: String) async throws -> [SecretServiceItemProperties] {
        try await mapping(collection: collection) { () async throws(VaultError) in
            _ = try await vault.collections.collection(collection)
            return try await vault.collections.items(inCollection: collection).map(Self.properties)
        }
    }

    public func searchItems(attributes: [String: String], in collection: String?) async throws -> [SecretServiceItemProperties] {
        try await mapping(collection: collection) { () async throws(VaultError) in
            try await vault.collections.searchItems(attributes: attributes, inCollection: collection).map(Self.properties)
        }
    }

    public func item(_ item: SecretServiceItemID) async throws -> SecretServiceItemProperties {
        try await mapping(item: item) { () async throws(VaultError) in
            Self.properties(try await vault.collections.item(item.item, inCollection: item.collection))
        }
    }

    public func createItem(
        in collection: String, label: String, attributes: [String: String], secret: SecretServiceSecret, replacing: Bool,
        for caller: SecretServiceCaller
    ) async throws -> SecretServiceItemProperties {
        var context = lockedContext(for: caller)
        if replacing {
            // SPEC D10, D11: the item it would replace must be open for this caller; the vault keeps its access control.
            let existing = try await searchItems(attributes: attributes, in: collection).filter { $0.attributes == attributes }
            for item in existing where try await needsAuthentication(item.id, for: caller) {
                throw SecretServiceStoreError.locked(item.id)
            }
            if let first = existing.first { context = self.context(for: first.id, caller: caller) }
        }
        return try await mapping(collection: collection) { () async throws(VaultError) in
            Self.properties(try await vault.collections.createItem(
                in: collection, label: label, attributes: attributes, contentType: secret.contentType, value: secret.value,
                accessControl: defaultAccessControl, replacing: replacing, context: context, app: caller.app))
        }
    }

    public func deleteItem(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws {
        // Never prompts here: another app's item is deleted once the owner allowed this caller, through an Unlock (SPEC D13).
        let context = context(for: item, caller: caller)
        context.interactionNotAllowed = true
        try await mapping(item: item) { () async throws(VaultError) in
            try await vault.collections.deleteItem(item.item, inCollection: item.collection, context: context)
        }
    }

    public func secret(of item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> SecretServiceSecret {
        // Never prompts: a locked item is refused here, and opened only by a Prompt.
        let context = context(for: item, caller: caller)
        let read = try await mapping(item: item) { () async throws(VaultError) in
            try await vault.collections.secretIfUnlocked(
                ofItem: item.item, inCollection: item.collection,
                operationPrompt: { "Read \"\($0.label)\" for \(caller.executable ?? caller.busName)" }, context: context)
        }
        guard let read else { throw SecretServiceStoreError.locked(item) }
        return SecretServiceSecret(value: read.value, contentType: read.item.contentType)
    }

    public func setSecret(of item: SecretServiceItemID, _ secret: SecretServiceSecret, for caller: SecretServiceCaller) async throws {
        guard try await !needsAuthentication(item, for: caller) else { throw SecretServiceStoreError.locked(item) }
        let context = context(for: item, caller: caller)
        try await mapping(item: item) { () async throws(VaultError) in
            try await vault.collections.setSecret(secret.value, ofItem: item.item, inCollection: item.collection,
                                      operationPrompt: "Change a Secret Service item", context: context)
        }
    }

    public func setItemLabel(_ item: SecretServiceItemID, label: String, for caller: SecretServiceCaller) async throws {
        let context = context(for: item, caller: caller)
        try await mapping(item: item) { () async throws(VaultError) in
            try await vault.collections.setItemLabel(label, ofItem: item.item, inCollection: item.collection, context: context)
        }
    }

    public func setItemAttributes(_ item: SecretServiceItemID, attributes: [String: String], for caller: SecretServiceCaller) async throws {
        let context = context(for: item, caller: caller)
        try await mapping(item: item) { () async throws(VaultError) in
            try await vault.collections.setItemAttributes(attributes, ofItem: item.item, inCollection: item.collection, context: context)
        }
    }

    // MARK: Locked

    public func needsAuthentication(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> Bool {
        let context = context(for: item, caller: caller)
        return try await mapping(item: item) { () async throws(VaultError) in
            try await vault.collections.needsAuthentication(item: item.item, inCollection: item.collection, context: context)
        }
    }

    public func authenticate(_ items: [SecretServiceItemID], reason: String, for caller: SecretServiceCaller) async throws {
        // A new context for each Unlock, asking where this caller is: what it authorises lasts unlockDuration, no longer.
        let context = makeContext(caller)
        context.askingApp = caller.app
        // SPEC D13: an item another app made asks the owner first, naming both apps.
        for item in items {
            try await mapping(item: item) { () async throws(VaultError) in
                try await vault.collections.askAppAccess(forItem: item.item, inCollection: item.collection, operation: .read, context: context)
            }
        }
        var controls: [AccessControl] = []
        for item in items {
            let control = try await mapping(item: item) { () async throws(VaultError) in
                try await vault.collections.item(item.item, inCollection: item.collection).accessControl
            }
            if !control.userFactors.isEmpty, !controls.contains(control) { controls.append(control) }
        }
        for control in controls {
            do {
                try await context.evaluateAccessControl(control, operation: .useItem, localizedReason: reason)
            } catch {
                switch error.code {
                case .userCancel, .appCancel, .systemCancel: throw SecretServiceStoreError.cancelled
                default: throw SecretServiceStoreError.failed(error.message)
                }
            }
        }
        endExpiredOpenings()
        var held = openings[caller.busName] ?? []
        held.append(Opening(context: context, items: Set(items), until: .now + unlockDuration))
        while held.count > Self.maximumOpeningsPerClient { held.removeFirst().context.invalidate() }
        openings[caller.busName] = held
    }

    public func lock(_ items: [SecretServiceItemID]) async throws -> [SecretServiceItemID] {
        // Every client's opening ends, not only the caller's: a Lock fails closed.
        for opening in openings.values.joined() { opening.context.invalidate() }
        openings = [:]
        // With no opening left, a context without a reuse window answers for every client alike.
        let context = lockedContext()
        defer { context.invalidate() }
        var locked: [SecretServiceItemID] = []
        for item in items {
            let needs = try await mapping(item: item) { () async throws(VaultError) in
                try await vault.collections.needsAuthentication(item: item.item, inCollection: item.collection, context: context)
            }
            if needs { locked.append(item) }
        }
        return locked
    }

    public func sessionLocked() async -> [SecretServiceItemID] {
        let ended = openings.values.joined()
        for opening in ended { opening.context.invalidate() }
        openings = [:]
        return Array(Set(ended.flatMap(\.items))).sorted { ($0.collection, $0.item) < ($1.collection, $1.item) }
    }

    public func callerLeft(_ caller: SecretServiceCaller) async {
        for opening in openings.removeValue(forKey: caller.busName) ?? [] { opening.context.invalidate() }
    }

    // MARK: Helpers

    /// The context that judges `item` for `caller`: that of the newest
    /// opening of the caller that names the item while it lasts, else one
    /// that has authorised nothing and has no reuse window.
    private func context(for item: SecretServiceItemID, caller: SecretServiceCaller) -> AuthenticationContext {
        endExpiredOpenings()
        if let opening = openings[caller.busName]?.last(where: { $0.items.contains(item) }) { return opening.context }
        return lockedContext(for: caller)
    }

    /// A new context that no Unlock authorised and that no other process's
    /// scan satisfies (no reuse window): what an item no prompt opened for
    /// this caller is judged on (SPEC D10).
    private func lockedContext(for caller: SecretServiceCaller? = nil) -> AuthenticationContext {
        let context = makeContext(caller)
        context.reuseDuration = 0
        // Whose items these are is judged by the caller's app (SPEC D13).
        context.askingApp = caller?.app
        return context
    }

    /// Drops the openings whose time is up, so clients that never call again
    /// do not keep a context each.
    private func endExpiredOpenings() {
        let now = ContinuousClock.now
        for (name, held) in openings {
            let (ended, current) = (held.filter { $0.until <= now }, held.filter { $0.until > now })
            guard !ended.isEmpty else { continue }
            for opening in ended { opening.context.invalidate() }
            openings[name] = current.isEmpty ? nil : current
        }
    }

    private static func properties(_ collection: Sesame.ItemCollection) -> SecretServiceCollectionProperties {
        SecretServiceCollectionProperties(
            id: collection.id, label: collection.label,
            created: seconds(collection.created), modified: seconds(collection.modified))
    }

    private static func properties(_ item: Sesame.AttributedItem) -> SecretServiceItemProperties {
        SecretServiceItemProperties(
            id: SecretServiceItemID(collection: item.collection, item: item.id), label: item.label, attributes: item.attributes,
            created: seconds(item.created), modified: seconds(item.modified))
    }

    private static func seconds(_ date: Date) -> UInt64 {
        let value = date.timeIntervalSince1970
        return value.isFinite && value > 0 ? UInt64(value) : 0
    }

    /// Runs a vault call, turning its errors into the seam's.
    private func mapping<Value: Sendable>(
        collection: String? = nil, item: SecretServiceItemID? = nil, _ body: () async throws(VaultError) -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch {
            switch error.status {
            case .itemNotFound:
                if let item { throw SecretServiceStoreError.noSuchItem(item) }
                if let collection { throw SecretServiceStoreError.noSuchCollection(collection) }
                throw SecretServiceStoreError.failed(error.message)
            case .userCanceled: throw SecretServiceStoreError.cancelled
            case .interactionNotAllowed: throw item.map(SecretServiceStoreError.locked) ?? SecretServiceStoreError.failed(error.message)
            default: throw SecretServiceStoreError.failed(error.message)
            }
        }
    }
}
