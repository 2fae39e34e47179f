#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An item of a collection (SPEC D10): an ordinary vault item
/// (``VaultItems/list(service:)`` shows it, under the service
/// ``VaultCollections/service(ofCollection:)``) with lookup attributes, found through
/// their keyed hashes, and a content type, all sealed at rest (SPEC D9).
/// Never its value.
public struct AttributedItem: Sendable, Hashable {
    /// Its identifier within the collection: 16 random lowercase hex
    /// digits, and the vault item's account.
    public let id: String
    /// The identifier of its ``ItemCollection``.
    public let collection: String
    /// Its label for people. Text from outside: escape it before showing it.
    public let label: String
    /// Its lookup attributes, any UTF-8 text; possibly empty.
    public let attributes: [String: String]
    /// The media type of its value, e.g. `text/plain`.
    public let contentType: String
    /// When it was created.
    public let created: Date
    /// When it last changed.
    public let modified: Date
    /// Who may read its value: the vault's access control (SPEC D2).
    public let accessControl: AccessControl
}

extension AttributedItem {
    /// Refuses what the vault's bounds refuse of a new item: a label too
    /// long, too many or too long attributes, a content type too long, a
    /// value over ``Vault/maximumValueSize``. For items kept in memory only
    /// (never written to the vault), so that they meet the same bounds as
    /// stored ones (SPEC D10). Never prompts.
    ///
    /// Unlike a stored item's, their labels and attribute names may hold
    /// control characters: they are never written anywhere and are escaped
    /// wherever they are shown (SPEC D9), and clients put them there
    /// (python-keyring labels an item with the service and user names it is
    /// given, whatever they hold).
    ///
    /// - Throws: ``VaultError`` with `invalidArgument`, saying which part and why.
    public static func checkBounds(label: String, attributes: [String: String], contentType: String, value: SecretBytes) throws(VaultError) {
        try CollectionNames.check(label: label, what: "item", asNames: false)
        try CollectionNames.check(attributes: attributes, asNames: false)
        try CollectionNames.check(contentType: contentType, asNames: false)
        try Vault.checkValueSize(value, of: "the item \"\(label.escapingControlCharacters())\"")
    }
}
