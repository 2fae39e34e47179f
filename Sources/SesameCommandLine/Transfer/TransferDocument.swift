import Sesame

/// `export --json` and `import --json`: the report, on standard output.
struct TransferDocument: Encodable {
    struct Item: Encodable {
        var service: String
        var name: String
        var reason: String?
    }

    /// Items written to the export, or added by the import.
    var transferred: Int
    /// `import`: the vault's own items, kept (conflicts).
    var kept: [Item]?
    /// Items left out, with why.
    var skipped: [Item]

    static func items(_ skipped: [TransferReport.Skipped], reasons: Bool = true) -> [Item] {
        skipped.map { Item(service: $0.service, name: $0.account, reason: reasons ? $0.reason : nil) }
    }
}
