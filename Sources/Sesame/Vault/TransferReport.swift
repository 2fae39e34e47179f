/// What an export or import did, item by item: nothing is left out silently.
public struct TransferReport: Sendable {
    /// An item that was not exported or imported, and why.
    public struct Skipped: Sendable, Hashable {
        /// The item's service.
        public let service: String
        /// The item's account.
        public let account: String
        /// Why, in words.
        public let reason: String
    }

    /// The export file (empty after an import). Store it where you keep
    /// backups; it is encrypted to the passphrase.
    public let file: [UInt8]
    /// How many items were exported or imported.
    public let transferred: Int
    /// The items left out, with the reason.
    public let skipped: [Skipped]
}
