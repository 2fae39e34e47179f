/// One collection of another Secret Service provider, as read for an import;
/// its items are handed over one at a time, never held here.
package struct SecretServiceSourceCollection: Sendable {
    /// Its object path on the provider.
    package var path: String
    /// Its label (outside text: escape it to show it).
    package var label: String
    /// Whether the provider's `default` alias points at it.
    package var isDefault: Bool
    /// The items not read, with the reason.
    package var skipped: [SecretServiceSourceSkip]

    /// The last element of a collection path: for a Sesame provider, the
    /// vault's identifier of the collection.
    package static func identifier(ofPath path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? ""
    }
}
