import Sesame

/// Everything persistent the Secret Service server asks for: collections,
/// aliases, items and their secrets, and the items' access control. The
/// server holds no secret and no item of its own (the in-process `session`
/// collection aside); an implementation adapts the vault (or, in tests,
/// `InMemorySecretServiceStore` from SesameTesting).
///
/// Identifiers are the store's: collection and item ids appear in D-Bus object
/// paths, so they must be non-empty and made of `[A-Za-z0-9_]` only; the server
/// refuses any other (an item it cannot name does not exist for clients).
/// The id and alias `session` are the server's own in-process collection:
/// calls for it never reach the store.
///
/// Only ``authenticate(_:reason:for:)`` may prompt; every other call never prompts.
public protocol SecretServiceStore: Sendable {
    /// Every collection. Never prompts.
    /// - Returns: The collections, in a stable order.
    /// - Throws: ``SecretServiceStoreError``.
    func collections() async throws -> [SecretServiceCollectionProperties]

    /// Creates a collection.
    /// - Parameters:
    ///   - label: Shown to people; may be empty.
    ///   - alias: An alias to point at it (`default`), or `nil`.
    /// - Returns: The new collection.
    /// - Throws: ``SecretServiceStoreError``.
    func createCollection(label: String, alias: String?) async throws -> SecretServiceCollectionProperties

    /// Deletes a collection and its items. Never prompts.
    /// - Parameter collection: Its id.
    /// - Throws: ``SecretServiceStoreError/noSuchCollection(_:)``.
    func deleteCollection(_ collection: String) async throws

    /// Renames a collection. Never prompts.
    /// - Throws: ``SecretServiceStoreError/noSuchCollection(_:)``.
    func setCollectionLabel(_ collection: String, label: String) async throws

    /// The collection an alias points at. Never prompts.
    /// - Parameter alias: e.g. `default`.
    /// - Returns: Its collection id, or `nil` when the alias is not set.
    /// - Throws: ``SecretServiceStoreError``.
    func readAlias(_ alias: String) async throws -> String?

    /// Points `alias` at `collection`, or removes it when `collection` is `nil`.
    /// - Throws: ``SecretServiceStoreError/noSuchCollection(_:)``.
    func setAlias(_ alias: String, collection: String?) async throws

    /// The items of one collection. Never prompts.
    /// - Throws: ``SecretServiceStoreError/noSuchCollection(_:)``.
    func items(in collection: String) async throws -> [SecretServiceItemProperties]

    /// The items whose attributes include every pair of `attributes` (all
    /// items for an empty map). Never prompts.
    /// - Parameters:
    ///   - attributes: Exact matches, name to value.
    ///   - collection: Only this collection's items, or every collection's.
    /// - Throws: ``SecretServiceStoreError``.
    func searchItems(attributes: [String: String], in collection: String?) async throws -> [SecretServiceItemProperties]

    /// One item's metadata. Never prompts.
    /// - Throws: ``SecretServiceStoreError/noSuchItem(_:)``.
    func item(_ item: SecretServiceItemID) async throws -> SecretServiceItemProperties

    /// Creates an item, or with `replacing` overwrites the item of that
    /// collection with exactly these attributes.
    /// - Parameters:
    ///   - collection: Where.
    ///   - label: Shown to people.
    ///   - attributes: Searchable, not secret to the owner.
    ///   - secret: The value and its content type.
    ///   - replacing: Replace an item with the same attributes instead of adding one.
    ///   - caller: Who asks: an item to replace must be open for this caller,
    ///     and the replacement never has a weaker protection than it (SPEC D11).
    /// - Returns: The item created or replaced.
    /// - Throws: ``SecretServiceStoreError``; ``SecretServiceStoreError/locked(_:)``
    ///   when the item to replace needs authentication.
    func createItem(in collection: String, label: String, attributes: [String: String],
                    secret: SecretServiceSecret, replacing: Bool, for caller: SecretServiceCaller) async throws -> SecretServiceItemProperties

    /// Deletes an item. Never prompts: an item another app made (SPEC D13)
    /// throws ``SecretServiceStoreError/locked(_:)`` until the owner allowed
    /// `caller`'s app through ``authenticate(_:reason:for:)``.
    /// - Throws: ``SecretServiceStoreError/noSuchItem(_:)``, ``SecretServiceStoreError/locked(_:)``.
    func deleteItem(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws

    /// An item's secret. Never prompts: an item that needs authentication
    /// throws ``SecretServiceStoreError/locked(_:)`` until ``authenticate(_:reason:for:)``
    /// succeeded for it and this caller.
    /// - Parameters:
    ///   - item: Which.
    ///   - caller: Who asks: whose opening counts, and for the store's records.
    /// - Throws: ``SecretServiceStoreError``.
    func secret(of item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> SecretServiceSecret

    /// Replaces an item's secret. Never prompts.
    /// - Parameters:
    ///   - item: Which.
    ///   - secret: The new value and content type.
    ///   - caller: Who asks: the item must be open for this caller.
    /// - Throws: ``SecretServiceStoreError``, `.locked` as ``secret(of:for:)``.
    func setSecret(of item: SecretServiceItemID, _ secret: SecretServiceSecret, for caller: SecretServiceCaller) async throws

    /// Renames an item. Never prompts. The label is what prompts show, so
    /// an item that needs authentication is renamed only once open for
    /// this caller (SPEC D10).
    /// - Parameters:
    ///   - item: Which.
    ///   - label: The new label.
    ///   - caller: Who asks: the item must be open for this caller.
    /// - Throws: ``SecretServiceStoreError/noSuchItem(_:)``, `.locked` as ``secret(of:for:)``.
    func setItemLabel(_ item: SecretServiceItemID, label: String, for caller: SecretServiceCaller) async throws

    /// Replaces an item's attributes. Never prompts; as ``setItemLabel(_:label:for:)``,
    /// a locked item's only once open for this caller.
    /// - Parameters:
    ///   - item: Which.
    ///   - attributes: The new attributes.
    ///   - caller: Who asks.
    /// - Throws: ``SecretServiceStoreError/noSuchItem(_:)``, `.locked`.
    func setItemAttributes(_ item: SecretServiceItemID, attributes: [String: String], for caller: SecretServiceCaller) async throws

    /// Whether reading the item needs its owner now, for this caller: the
    /// Secret Service's "Locked" (SPEC D10: locked while the item's access
    /// control is unsatisfied *for the caller*). What one client's `Unlock`
    /// opened stays locked for every other client. Never prompts.
    /// - Parameters:
    ///   - item: Which.
    ///   - caller: Who asks; its unique bus name is what an opening belongs to.
    /// - Returns: `false` for an item whose access control needs nobody.
    /// - Throws: ``SecretServiceStoreError/noSuchItem(_:)``.
    func needsAuthentication(_ item: SecretServiceItemID, for caller: SecretServiceCaller) async throws -> Bool

    /// Runs the items' access control (fingerprint, password…), after which
    /// exactly these items (no other of the same access control) no longer
    /// need authentication *for this caller* for as long as the store
    /// allows. The one call that prompts.
    /// - Parameters:
    ///   - items: What the caller asked to unlock.
    ///   - reason: Shown to the owner: the calling program and the items.
    ///   - caller: The client the prompt belongs to; only it gets the opening.
    /// - Throws: `CancellationError` or ``SecretServiceStoreError/cancelled``
    ///   when the owner or the caller gave up (the prompt completes
    ///   dismissed); any other error also leaves the items locked.
    func authenticate(_ items: [SecretServiceItemID], reason: String, for caller: SecretServiceCaller) async throws

    /// Makes the items need authentication again, where their access control
    /// asks for someone: every client's opening ends, not only the caller's
    /// (a Lock fails closed). Never prompts.
    /// - Returns: The items that are now locked.
    /// - Throws: ``SecretServiceStoreError``.
    func lock(_ items: [SecretServiceItemID]) async throws -> [SecretServiceItemID]

    /// The owner's session locked, or the machine began to sleep (SPEC D14):
    /// every client's opening ends at once, as a `Lock` of everything.
    /// Never prompts.
    /// - Returns: The items whose opening ended, so their `Locked` change
    ///   can be announced.
    func sessionLocked() async -> [SecretServiceItemID]

    /// The client left the bus: what it opened closes. Its unique name is
    /// never given to another connection, so this frees memory; it also
    /// ends the opening at once rather than at the end of its duration.
    /// Never prompts.
    /// - Parameter caller: The client that left (its unique bus name).
    func callerLeft(_ caller: SecretServiceCaller) async
}
