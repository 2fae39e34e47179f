/// An item's identity: its collection's id and its own, both path-safe
/// (`[A-Za-z0-9_]+`), as in `/org/freedesktop/secrets/collection/<collection>/<item>`.
public struct SecretServiceItemID: Sendable, Hashable, CustomStringConvertible {
    public var collection: String
    public var item: String

    /// - Parameters:
    ///   - collection: The collection's id.
    ///   - item: The item's id within it.
    public init(collection: String, item: String) {
        self.collection = collection
        self.item = item
    }

    public var description: String { "\(collection)/\(item)" }
}
