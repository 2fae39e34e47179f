import Foundation
import Testing

/// docs/ARCHITECTURE.md's module table names each module's folders; this
/// holds that column to `Sources/`, as `ModuleImportTests` holds the
/// **may import** column to the imports. No SPEC rule applies: the table is
/// the repository's own map, and a map that names a folder that is gone, or
/// misses one that exists, sends a reader to the wrong place.
@Suite("docs/ARCHITECTURE.md's folders column matches Sources/")
struct ArchitectureTableTests {
    /// Module → the top-level folders its row's **folders** cell names; a
    /// module whose cell is `—` (no folders) has no entry.
    ///
    /// A cell is a list of entries joined by ` · `. An entry that starts with
    /// a backticked name is that folder (what follows in parentheses describes
    /// it and may name its subfolders, which are not top-level). An entry in
    /// words, such as "one folder per command group (`Agent`, `Key`, …)",
    /// names its folders inside its parentheses.
    static func folders(table markdown: String) -> [String: Set<String>] {
        var folders: [String: Set<String>] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let cell = cells[4]
            guard !cell.isEmpty, cell != "—" else { continue }
            folders[module] = Set(entries(of: cell).flatMap(names(in:)))
        }
        return folders
    }

    /// The cell split at each ` · ` outside parentheses.
    static func entries(of cell: String) -> [String] {
        var entries: [String] = []
        var current = ""
        var depth = 0
        var rest = Substring(cell)
        while let character = rest.first {
            if depth == 0, rest.hasPrefix(" · ") {
                entries.append(current)
                current = ""
                rest = rest.dropFirst(3)
                continue
            }
            if character == "(" { depth += 1 }
            if character == ")" { depth = max(0, depth - 1) }
            current.append(character)
            rest = rest.dropFirst()
        }
        entries.append(current)
        return entries.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The folders one entry names: its leading backticked name, or, for an
    /// entry in words, the backticked names inside its first parentheses.
    static func names(in entry: String) -> [String] {
        if entry.hasPrefix("`") {
            return backticked(in: entry.prefix { $0 != "(" }).prefix(1).map { $0 }
        }
        guard let open = entry.firstIndex(of: "(") else { return [] }
        var depth = 0
        var inside = ""
        for character in entry[open...] {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 1, character != "(" { inside.append(character) }
            if depth == 0 { break }
        }
        return backticked(in: Substring(inside))
    }

    /// Every `name` between backticks, in order.
    static func backticked(in text: Substring) -> [String] {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }.filter { !$0.isEmpty }
    }

    /// The top-level folders of `Sources/<module>`, DocC catalogs left out.
    static func folders(of module: String) -> Set<String> {
        let directory = ModuleImportTests.root.appendingPathComponent("Sources/\(module)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Set(names.filter { name in
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            return !name.hasSuffix(".docc") && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        })
    }

    @Test("every folder of a module with folders is in its row, and every folder its row names exists")
    func foldersFollowTheTable() throws {
        let table = try String(contentsOf: ModuleImportTests.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let named = Self.folders(table: table)
        #expect(named.count >= 7, "the table's folders column must be read: \(named.keys.sorted())")
        for (module, listed) in named.sorted(by: { $0.key < $1.key }) {
            let present = Self.folders(of: module)
            #expect(present.subtracting(listed).isEmpty, "\(module): folders missing from docs/ARCHITECTURE.md: \(present.subtracting(listed).sorted())")
            #expect(listed.subtracting(present).isEmpty, "\(module): docs/ARCHITECTURE.md names folders that do not exist: \(listed.subtracting(present).sorted())")
        }
    }

    @Test("the parser reads a folder per entry, the folders an entry in words lists, and nothing from descriptions or a —")
    func parserReadsTheCells() {
        let table = """
            | module | what it is for | may import | folders |
            | --- | --- | --- | --- |
            | `Core` | x | — | `Vault` · `SecurityCore` (envelope, `DedicatedThread` (PAM, the TPM) and more) · `DeviceKey` (see `Vault`) |
            | `CommandLine` | x | `Core` | one folder per command group (`Agent`, `Key`, …) · `Support` (its `Internal`: the one child) |
            | `shim` | x | — | — |
            """
        #expect(Self.folders(table: table) == [
            "Core": ["Vault", "SecurityCore", "DeviceKey"],
            "CommandLine": ["Agent", "Key", "Support"],
        ])
    }
}
