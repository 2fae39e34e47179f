import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// `sesame ls`: the items' attributes, never their values. Never prompts
/// for an item (the vault itself may need its passcode).
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        _superCommandName: SesameCommand.name,
        abstract: "List the items in a table: service, name, label, access, accessibility, and a Secret Service item's attributes and app; never values (--json for scripts)."
    )

    @OptionGroup var options: VaultOpeningOptions

    @Option(help: "Only this service's items.")
    var service: String?

    @Flag(help: "Print a JSON array of items.")
    var json = false

    /// One item in `--json`; the spellings are those of `put`'s options.
    private struct Entry: Encodable {
        var service: String
        var name: String
        var label: String?
        var access: String
        var accessibility: String
        var created: Date
        var modified: Date
        /// The app that made a Secret Service item (SPEC D13), as `sesame app` takes it.
        var app: String?
        /// The apps its owner allowed; absent for other items.
        var allowedApps: [String]?
        /// A Secret Service item's attributes, by which its client finds it
        /// (`service`, `user`, …); absent for other items, whose NAME is
        /// theirs while a Secret Service item's is a digest.
        var attributes: [String: String]?
    }

    /// A Secret Service item's attributes as a person reads them: `k=v`,
    /// sorted, without libsecret's `xdg:schema` (the same for every item of
    /// an app), each value cut at 40 characters; `-` when none are left.
    static func attributesCell(_ attributes: [String: String]) -> String {
        let shown = attributes.filter { $0.key != "xdg:schema" }.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value.count > 40 ? String(value.prefix(39)) + "…" : value)"
        }
        return shown.isEmpty ? "-" : shown.joined(separator: " ")
    }

    /// `rows` in columns two spaces apart, each line without trailing spaces.
    static func table(_ rows: [[String]]) -> String {
        let widths = rows.reduce(into: [Int](repeating: 0, count: rows.first?.count ?? 0)) { widths, row in
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }.joined()
        }.joined(separator: "\n") + "\n"
    }

    /// Prints escaped `rows` for whoever reads them. On a terminal, a
    /// person: columns under `header`, as this command prints its own table
    /// (cells past the header's, as the key list's constraints, joined
    /// under `extra`). Piped, a script: the tab-separated rows without a
    /// header that `key ls` and `passkey ls` have always printed, so the
    /// readers of that format keep working (`--json` is the stable one).
    ///
    /// - Parameters:
    ///   - rows: The rows, each cell escaped (SPEC D9).
    ///   - header: The names of the columns every row has.
    ///   - extra: The name of the column of further cells, if rows have any.
    static func printRows(_ rows: [[String]], header: [String], extra: String? = nil) {
        guard SecretReader.isTerminal(1) else {
            for row in rows { print(row.joined(separator: "\t")) }
            return
        }
        guard !rows.isEmpty else { return }
        let hasExtra = extra != nil && rows.contains { $0.count > header.count }
        let cells = rows.map { row in
            Array(row.prefix(header.count)) + (hasExtra ? [row.count > header.count ? row.dropFirst(header.count).joined(separator: " ") : "-"] : [])
        }
        print(table([header + (hasExtra ? [extra ?? ""] : [])] + cells), terminator: "")
    }

    /// The apps the Secret Service items record, by service and name (SPEC D13).
    private static func apps(in vault: Vault, service: String?) async throws -> [String: AttributedItem] {
        var found: [String: AttributedItem] = [:]
        for collection in try await vault.collections.list() {
            let collectionService = VaultCollections.service(ofCollection: collection.id)
            guard service == nil || service == collectionService else { continue }
            for item in try await vault.collections.items(inCollection: collection.id) {
                found["\(collectionService)\u{0}\(item.id)"] = item
            }
        }
        return found
    }

    func run() async throws {
        try await reporting(json: json) {
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let apps = try await Self.apps(in: vault, service: service)
            let entries = try await vault.items.list(service: service).map { item in
                let recorded = apps["\(item.service)\u{0}\(item.account)"]
                // A Secret Service item's label is its client's; its NAME a digest.
                let label = item.label.flatMap { $0.isEmpty ? nil : $0 } ?? recorded.flatMap { $0.label.isEmpty ? nil : $0.label }
                return Entry(service: item.service, name: item.account, label: label,
                             access: AccessArgument.describe(item.accessControl),
                             accessibility: AccessibilityArgument.name(item.accessibility),
                             created: item.created, modified: item.modified,
                             app: recorded?.app?.token, allowedApps: recorded.map { $0.allowedApps.map(\.token) },
                             attributes: recorded?.attributes)
            }
            if json {
                print(JSONOutput.encode(entries))
                return
            }
            guard !entries.isEmpty else { return }
            // Escaped (SPEC D9): a tab or newline in a name cannot shift the
            // columns, an escape sequence cannot reach the terminal. Scripts
            // read --json; this is for people.
            // The ATTRIBUTES and APP columns only where Secret Service items
            // are listed: other items have neither.
            let showsApps = entries.contains { $0.allowedApps != nil }
            let rows = entries.map { entry in
                ([entry.service, entry.name, entry.label.flatMap { $0.isEmpty ? nil : $0 } ?? "-", entry.access, entry.accessibility]
                 + (showsApps ? [entry.attributes.map(Self.attributesCell) ?? "-", entry.app ?? "-"] : []))
                    .map { $0.escapingControlCharacters() }
            }
            let header = ["SERVICE", "NAME", "LABEL", "ACCESS", "ACCESSIBILITY"] + (showsApps ? ["ATTRIBUTES", "APP"] : [])
            print(Self.table([header] + rows), terminator: "")
        }
    }
}
