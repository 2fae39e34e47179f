/// A collection as the store describes it.
public struct SecretServiceCollectionProperties: Sendable, Hashable {
    /// Path-safe (`[A-Za-z0-9_]+`).
    public var id: String
    public var label: String
    /// Seconds since 1970.
    public var created: UInt64
    /// Seconds since 1970.
    public var modified: UInt64

    /// - Parameters:
    ///   - id: Path-safe id.
    ///   - label: Shown to people.
    ///   - created: Seconds since 1970.
    ///   - modified: Seconds since 1970.
    public init(id: String, label: String, created: UInt64, modified: UInt64) {
        self.id = id
        self.label = label
        self.created = created
        self.modified = modified
    }
}
