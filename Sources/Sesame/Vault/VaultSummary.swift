/// What a vault file tells without being unlocked: enough for a status
/// report, nothing secret. See ``Vault/summary(at:)``.
public struct VaultSummary: Sendable, Hashable {
    /// The file's format version.
    public var format: Int
    /// The kinds of its key slots, sorted: `device`, `passcode`, `recovery`.
    public var slots: [String]
    /// The number of item rows. Not authenticated: rows are checked only
    /// when the unlocked vault reads them, so a tampered file can miscount.
    public var itemCount: Int

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - format: The format version.
    ///   - slots: The key slot kinds.
    ///   - itemCount: The number of item rows.
    public init(format: Int, slots: [String], itemCount: Int) {
        self.format = format
        self.slots = slots
        self.itemCount = itemCount
    }
}
