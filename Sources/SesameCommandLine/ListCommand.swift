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
        abstract: "List the items: service, name, access and accessibility; never values."
    )

    @OptionGroup var options: VaultOptions

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
    }

    func run() async throws {
        try await reporting(json: json) {
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let entries = try await vault.list(service: service).map { item in
                Entry(service: item.service, name: item.account, label: item.label,
                      access: AccessArgument.describe(item.accessControl),
                      accessibility: AccessibilityArgument.name(item.accessibility),
                      created: item.created, modified: item.modified)
            }
            if json {
                print(JSONOutput.encode(entries))
                return
            }
            // Tab-separated: stable for `cut` and `awk`, readable enough. Names
            // are escaped (SPEC D9): a tab in one cannot shift the columns, an
            // escape sequence cannot reach the terminal.
            for entry in entries {
                print([entry.service, entry.name, entry.access, entry.accessibility].map { $0.escapingControlCharacters() }.joined(separator: "\t"))
            }
        }
    }
}
