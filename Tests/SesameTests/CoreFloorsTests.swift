import Foundation
import Testing

/// docs/ARCHITECTURE.md's floors of the core: a folder of `Sources/Sesame`
/// names no type declared on a floor above its own, so the security core,
/// secrets, access control and concurrency stand without the vault.
@Suite("The core's folders follow docs/ARCHITECTURE.md's floors")
struct CoreFloorsTests {
    /// Floor number → its folders, read from the table (rows whose first cell is a number).
    static func floors(table markdown: String) -> [Int: [String]] {
        var floors: [Int: [String]] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let floor = Int(cells[1]) else { continue }
            floors[floor] = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }
        }
        return floors
    }

    /// The code of a Swift file without its comments and string literals,
    /// where a type's name may appear without the code using it.
    static func code(_ source: String) -> String {
        var text = source.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"//[^\n]*"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: #""""[\s\S]*?""""#, with: "\"\"", options: .regularExpression)
        return text.replacingOccurrences(of: #""(?:\\.|[^"\\\n])*""#, with: "\"\"", options: .regularExpression)
    }

    /// The types a file declares at its top level (nested types are reached through them).
    static func declaredTypes(_ code: String) -> Set<String> {
        let pattern = #/(?m)^(?:(?:public|package|private|fileprivate|final|indirect) )*(?:struct|enum|class|actor|protocol|typealias) +([A-Z]\w*)/#
        return Set(code.matches(of: pattern).map { String($0.output.1) })
    }

    /// "Folder/File.swift names Type (Folder)" for each name of a type declared on a higher floor.
    static func violations(floors: [Int: [String]], sources: [(folder: String, file: String, text: String)]) -> [String] {
        var floorOf: [String: Int] = [:]
        for (floor, folders) in floors { for folder in folders { floorOf[folder] = floor } }
        var declaredIn: [String: String] = [:]
        for source in sources { for type in declaredTypes(code(source.text)) { declaredIn[type] = source.folder } }
        var found: [String] = []
        for source in sources {
            let floor = floorOf[source.folder] ?? Int.max
            let names = Set(code(source.text).matches(of: #/\b[A-Z]\w*\b/#).map { String($0.output) })
            for name in names.sorted() {
                guard let folder = declaredIn[name], folder != source.folder, let higher = floorOf[folder], higher > floor else { continue }
                found.append("\(source.folder)/\(source.file) names \(name) (\(folder))")
            }
        }
        return found
    }

    static var core: URL { RepositoryLayoutTests.packageRoot.appendingPathComponent("Sources/Sesame") }

    @Test("every folder of Sources/Sesame is on one floor, and names nothing from a floor above")
    func foldersFollowTheFloors() throws {
        let table = try String(contentsOf: RepositoryLayoutTests.packageRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let floors = Self.floors(table: table)
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.core.path).filter { !$0.hasSuffix(".docc") }
        let listed = floors.values.flatMap { $0 }
        #expect(listed.count == Set(listed).count, "a folder is on one floor")
        #expect(Set(folders) == Set(listed), "docs/ARCHITECTURE.md's floors name every folder of Sources/Sesame")
        #expect(floors[0]?.contains("SecurityCore") == true && floors[0]?.contains("Secrets") == true, "the security core stands at the bottom")
        let sources = folders.flatMap { folder in
            let directory = Self.core.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
            return files.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
                (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)).map { (folder, file, $0) }
            }
        }
        #expect(sources.count > 100, "the walk must see the sources it checks")
        #expect(Self.violations(floors: floors, sources: sources) == [])
    }

    @Test("the check finds a low folder naming the vault's types, and ignores comments and strings")
    func checkFindsViolations() {
        let floors = [0: ["SecurityCore"], 2: ["Vault"]]
        let sources = [
            (folder: "Vault", file: "VaultError.swift", text: "public struct VaultError: Error {}\nstruct ItemRow {}\n"),
            (folder: "SecurityCore", file: "Envelope.swift", text: "enum Envelope {\n    static func seal() throws(VaultError) {}\n}\n"),
            (folder: "SecurityCore", file: "Labels.swift", text: "/// Not ``ItemRow``.\nenum Labels { static let a = \"VaultError\" }\n"),
            (folder: "Vault", file: "Vault.swift", text: "struct Vault { let e = Envelope.self }\n"),
        ]
        #expect(Self.violations(floors: floors, sources: sources) == ["SecurityCore/Envelope.swift names VaultError (Vault)"])
    }
}
