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
        abstract: "List the items in a table: service, name, label, access, accessibility, and a Secret Service item's app; never values (--json for scripts)."
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
                return Entry(service: item.service, name: item.account, label: item.label,
                             access: AccessArgument.describe(item.accessControl),
                             accessibility: AccessibilityArgument.name(item.accessibility),
                             created: item.created, modified: item.modified,
                             app: recorded?.app?.token, allowedApps: recorded.map { $0.allowedApps.map(\.token) })
            }
            if json {
                print(JSONOutput.encode(entries))
                return
            }
            guard !entries.isEmpty else { return }
            // Escaped (SPEC D9): a tab or newline in a name cannot shift the
            // columns, an escape sequence cannot reach the terminal. Scripts
            // read --json; this is for people.
            // The APP column only where Secret Service items are listed: other items have no app.
            let showsApps = entries.contains { $0.allowedApps != nil }
            let rows = entries.map { entry in
                ([entry.service, entry.name, entry.label.flatMap { $0.isEmpty ? nil : $0 } ?? "-", entry.access, entry.accessibility]
                 + (showsApps ? [entry.app ?? "-"] : []))
                    .map { $0.escapingControlCharacters() }
            }
            let header = ["SERVICE", "NAME", "LABEL", "ACCESS", "ACCESSIBILITY"] + (showsApps ? ["APP"] : [])
            print(Self.table([header] + rows), terminator: "")
        }
    }
}
