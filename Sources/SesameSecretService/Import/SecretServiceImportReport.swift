/// What an import from another Secret Service provider did, per collection
/// (`sesame import --from-secret-service`, its `--json` report).
public struct SecretServiceImportReport: Encodable, Sendable, Hashable {
    /// An item of the source that was not copied, and why.
    public struct Skipped: Encodable, Sendable, Hashable {
        /// Its label on the source (outside text: escape it to show it).
        public var label: String
        /// Its object path on the source.
        public var path: String
        /// Why, for people.
        public var reason: String
    }

    /// One collection of the source.
    public struct Collection: Encodable, Sendable, Hashable {
        /// Its label on the source (outside text: escape it to show it).
        public var label: String
        /// Its object path on the source.
        public var path: String
        /// Items written to the vault (`replaced` of them took the place of an equal one).
        public var copied: Int
        /// Of the items copied, those that replaced an equal earlier copy.
        public var replaced: Int
        /// Items of the source not copied because the vault's equal item is protected: it is kept.
        public var kept: [Skipped]
        /// Items of the source not copied for another reason.
        public var skipped: [Skipped]
    }

    /// Items written to the vault, in all collections.
    public var copied: Int
    /// Of those, the ones that replaced an earlier copy.
    public var replaced: Int
    /// Items kept as the vault had them, protected (SPEC D11).
    public var kept: Int
    /// Items not copied for another reason.
    public var skipped: Int
    /// Each collection's tally.
    public var collections: [Collection]
}
