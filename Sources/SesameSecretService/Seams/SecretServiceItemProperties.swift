/// An item's D-Bus properties as the store describes them (never its secret);
/// the vault's own description is `Sesame.AttributedItem`.
public struct SecretServiceItemProperties: Sendable, Hashable {
    public var id: SecretServiceItemID
    public var label: String
    public var attributes: [String: String]
    /// Seconds since 1970.
    public var created: UInt64
    /// Seconds since 1970.
    public var modified: UInt64

    /// - Parameters:
    ///   - id: Its collection and id.
    ///   - label: Shown to people.
    ///   - attributes: Searchable pairs.
    ///   - created: Seconds since 1970.
    ///   - modified: Seconds since 1970.
    public init(id: SecretServiceItemID, label: String, attributes: [String: String], created: UInt64, modified: UInt64) {
        self.id = id
        self.label = label
        self.attributes = attributes
        self.created = created
        self.modified = modified
    }
}
