/// What `sesame setup secret-service --undo` gave back to the provider it
/// restored (the package's `SecretServiceGiveBack`), item by item.
public struct SecretServiceGiveBackReport: Encodable, Sendable, Hashable {
    /// An item, by its collection and label (outside text: escape both to show them).
    public struct Item: Encodable, Sendable, Hashable {
        /// Its collection's label in the vault.
        public var collection: String
        /// Its label.
        public var label: String
        /// Why it was not given back; `nil` for one that was.
        public var reason: String?
    }

    /// Items made or changed while Sesame served, now stored by the provider.
    public var givenBack: [Item] = []
    /// How many items the provider already held as the vault does.
    public var unchanged = 0
    /// Items the provider lacks or holds otherwise, not given back, each with why.
    public var notGivenBack: [Item] = []
}
