/// One collection of another Secret Service provider, as read for an import.
package struct SecretServiceSourceCollection: Sendable {
    /// Its object path on the provider.
    package var path: String
    /// Its label (outside text: escape it to show it).
    package var label: String
    /// Whether the provider's `default` alias points at it.
    package var isDefault: Bool
    /// The items read, secrets included.
    package var items: [SecretServiceSourceItem]
    /// The items not read, with the reason.
    package var skipped: [SecretServiceSourceSkip]

    /// The last element of its path: for a Sesame provider, the vault's
    /// identifier of the collection.
    package var identifier: String { Self.identifier(ofPath: path) }

    /// The last element of a collection path.
    package static func identifier(ofPath path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? ""
    }
}
