/// A vault's collections and the items in them (SPEC D10): named groups of
/// items, each item found by the attributes an app gave it rather than by
/// service and account, as the freedesktop Secret Service keeps them.
/// Reached as ``Vault/collections``; a value that only names its vault, so
/// it costs nothing to make and is safe to pass between tasks.
///
/// ```swift
/// let login = try await vault.collections.alias(named: "default", creatingCollectionLabelled: "Login")
/// let found = try await vault.collections.searchItems(attributes: ["service": "mail"], inCollection: login)
/// ```
public struct VaultCollections: Sendable {
    /// The vault the collections are in.
    public let vault: Vault
}

extension Vault {
    /// The vault's collections and their attributed items.
    public var collections: VaultCollections { VaultCollections(vault: self) }
}
