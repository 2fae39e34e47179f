/// Ordinary items with lookup attributes (SPEC D9): an item of an ordinary
/// service may carry attributes, sealed as a collection item's are and
/// found the same way, through keyed hashes, so a tool that keeps many items
/// in one service (git's credentials) finds its own without opening every
/// row of the service.
extension VaultCollections {
    /// The items of `service` whose lookup attributes include every pair of
    /// `attributes`, sorted by account. Never prompts, never decrypts a value.
    ///
    /// Each pair is looked up in the index by its keyed hash, and only the
    /// rows every pair names are opened; their sealed attributes are then
    /// compared again, so the index alone never decides a match. Items
    /// stored without attributes (``addItem(_:service:account:label:accessibility:accessControl:context:dates:replacing:attributes:)``
    /// without them, ``add(_:service:account:label:accessibility:accessControl:context:)``,
    /// an import) are never found here.
    ///
    /// - Parameters:
    ///   - service: The ordinary service searched; never a collection's.
    ///   - attributes: The pairs to match; empty matches every item of the
    ///     service that has attributes.
    /// - Returns: The matching items' descriptions.
    /// - Throws: ``VaultError`` with `tampered` (a candidate row fails its
    ///   integrity check), `damaged`, `ioError`.
    package func searchItems(service: String, attributes: [String: String]) async throws(VaultError) -> [VaultItem] {
        try await attributeSearch(AttributeIndex.Query(attributes: attributes, service: service)).rows
            .compactMap(\.attributes)
            .sorted { $0.account < $1.account }
    }
}
