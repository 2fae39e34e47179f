import Foundation
import Testing

/// docs/ARCHITECTURE.md's module table says which of the package's own
/// modules each module may import; every source file is held to it.
@Suite("Module imports follow docs/ARCHITECTURE.md")
struct ModuleImportTests {
    /// Module → the package modules it may import, read from the table.
    static func allowedImports(table markdown: String) -> [String: Set<String>] {
        var allowed: [String: Set<String>] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            allowed[module] = Set(cells[3].split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }.filter { !$0.isEmpty && $0 != "—" })
        }
        return allowed
    }

    /// The modules a Swift file imports (`import X`, `@testable import X`, `@_exported import X`).
    static func imports(of source: String) -> Set<String> {
        var found: Set<String> = []
        for line in source.split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                  index + 1 < words.count else { continue }
            found.insert(String(words[index + 1].split(separator: ".")[0]))
        }
        return found
    }

    /// "Module/File.swift imports X" for each import of a package module the table does not allow.
    static func violations(allowed: [String: Set<String>], sources: [(module: String, file: String, text: String)]) -> [String] {
        let packageModules = Set(allowed.keys)
        var found: [String] = []
        for source in sources {
            for imported in imports(of: source.text).sorted()
            where packageModules.contains(imported) && imported != source.module && !(allowed[source.module] ?? []).contains(imported) {
                found.append("\(source.module)/\(source.file) imports \(imported)")
            }
        }
        return found
    }

    static var root: URL { RepositoryLayoutTests.packageRoot }

    static func sources(of module: String) -> [(module: String, file: String, text: String)] {
        let directory = root.appendingPathComponent("Sources/\(module)")
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
            (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)).map { (module, file, $0) }
        }
    }

    @Test("every module of Sources/ has a row, and imports only what its row allows")
    func importsFollowTheTable() throws {
        let table = try String(contentsOf: Self.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let allowed = Self.allowedImports(table: table)
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path).sorted()
        #expect(Set(modules) == Set(allowed.keys), "docs/ARCHITECTURE.md has one row per folder of Sources/")
        #expect(allowed["Sesame"] == ["CSesameBootClock"], "the core imports no backend, integration or command line")
        #expect(allowed["SesameTesting"] == ["Sesame"], "the core's fakes import the core alone; Linux's harnesses are SesameLinuxTesting's")
        let sources = modules.flatMap(Self.sources(of:))
        #expect(sources.count > 100, "the walk must see the sources it checks")
        #expect(Self.violations(allowed: allowed, sources: sources) == [])
    }

    @Test("the check finds a forbidden import, and reads attributes and submodules")
    func checkFindsViolations() {
        let allowed = ["Sesame": Set<String>(), "SesameSSH": ["Sesame"], "SesameSecretsInUse": ["Sesame"]]
        let sources = [
            (module: "Sesame", file: "Vault/Vault.swift", text: "import Foundation\n@testable import SesameSSH\n"),
            (module: "SesameSSH", file: "Agent/SSHAgent.swift", text: "import Sesame\nimport SesameSecretsInUse.References\n"),
            (module: "SesameSecretsInUse", file: "References/A.swift", text: "import Sesame\n// import SesameSSH\n"),
        ]
        #expect(Self.violations(allowed: allowed, sources: sources) == [
            "Sesame/Vault/Vault.swift imports SesameSSH",
            "SesameSSH/Agent/SSHAgent.swift imports SesameSecretsInUse",
        ])
    }
}

/// An app that depends on the `Sesame` product alone links no integration.
/// `sesame-vault-stress`, built for these tests, is such an app:
/// its only package dependency is `Sesame`.
@Suite("An app on Sesame alone links no integration")
struct CoreOnlyLinkTests {
    /// The executable beside this test bundle.
    static func built(_ name: String) throws -> Data {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return try Data(contentsOf: bundle.deletingLastPathComponent().appendingPathComponent(name))
    }

    static func contains(_ binary: Data, _ text: String) -> Bool {
        binary.range(of: Data(text.utf8)) != nil
    }

    @Test("sesame-vault-stress holds the core's symbols and no name of SesameSSH, SesameSecretsInUse, SesameLinux or SwiftNIO")
    func coreOnly() throws {
        let app = try Self.built("sesame-vault-stress")
        #expect(Self.contains(app, "6Sesame5VaultC"), "the search must see the core it links")
        for module in ["SesameSSH", "SesameSecretsInUse", "SesameLinux", "SesameCommandLine", "NIOCore", "NIOPosix"] {
            #expect(!Self.contains(app, module), "an app on Sesame alone links \(module)")
        }
        // The same search finds an integration where one is linked.
        #expect(Self.contains(try Self.built("sesame"), "SesameSSH"))
    }

    /// The package dependencies of `target` in the manifest: the quoted
    /// names in its `dependencies: [...]`, products and targets alike.
    static func dependencies(of target: String, manifest: String) -> [String]? {
        guard let start = manifest.range(of: "name: \"\(target)\",\n            dependencies: [") else { return nil }
        // One dependency a line, up to the line that closes the list.
        let lines = manifest[start.upperBound...].split(separator: "\n")
            .prefix { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("]") }
        return lines.compactMap { line -> String? in
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard let open = code.firstIndex(of: "\"") else { return nil }
            let rest = code[code.index(after: open)...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
    }

    @Test("SesameTesting's target depends on Sesame and swift-crypto alone: an app's tests that want a SimulatedSensor link no backend")
    func testingOnCoreOnly() throws {
        let manifest = try String(contentsOf: ModuleImportTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(Self.dependencies(of: "SesameTesting", manifest: manifest) == ["Sesame", "Crypto"])
        // The same reading sees the harnesses' dependencies where they are.
        let linux = try #require(Self.dependencies(of: "SesameLinuxTesting", manifest: manifest))
        #expect(linux.contains("SesameSecretService") && linux.contains("Subprocess"))
    }
}
