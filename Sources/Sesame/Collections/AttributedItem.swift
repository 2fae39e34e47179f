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
    /// The app that created it or last replaced it (SPEC D13: the
    /// keychain's access group); `nil` when none was recorded, and then
    /// every app may use it, as before apps were recorded.
    public let app: AppIdentity?
    /// The apps its owner allowed always (SPEC D13), sorted and unique, at
    /// most 64: stored with the item (SPEC D8), so the owner is not asked
    /// again for them.
    public let allowedApps: [AppIdentity]

    /// Whether `asking` may use the item without asking the owner first
    /// (SPEC D13): the one place that decides it.
    ///
    /// `true` when the item records no app, or `asking` is its ``app`` or
    /// one of its ``allowedApps``. `false` for any other app, and for an
    /// asker whose app is unknown (`nil`) when the item records one: an app
    /// that cannot be named cannot be matched, so the owner decides.
    ///
    /// It decides only whether to ask the owner, naming both apps; it never
    /// replaces the item's ``accessControl``, which still applies to every
    /// app, the maker included. An identity the asker's own process can
    /// forge (``AppIdentity/Kind/executable``) sorts honest apps apart; it
    /// does not stop code that runs as the owner.
    ///
    /// - Parameter asking: The app of the client that asks; `nil` when it
    ///   could not be told.
    /// - Returns: Whether the item admits that app without the owner.
    public func admits(_ asking: AppIdentity?) -> Bool {
        guard let app else { return true }
        guard let asking else { return false }
        return asking == app || allowedApps.contains(asking)
    }
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
