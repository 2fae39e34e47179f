import Foundation
import Testing

/// The package must check out on case-insensitive volumes (macOS's and
/// Windows' defaults): `Sources/Sesame` and `Sources/sesame` cannot both
/// exist there, and SwiftPM's build folders for two such targets collide.
@Suite("Repository layout")
struct RepositoryLayoutTests {
    /// The package root: the nearest directory above this file with a Package.swift.
    static var packageRoot: URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }

    /// Every path in the working tree, relative to the root, without build
    /// output and version-control internals (they are never checked out).
    static func repositoryPaths(under root: URL) -> [String] {
        let skipped: Set<String> = [".git", ".swiftpm"]
        var paths: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? root.path : root.path + "/" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                if skipped.contains(name) || name.hasPrefix(".build") { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                paths.append(path)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &isDirectory), isDirectory.boolValue {
                    pending.append(path)
                }
            }
        }
        return paths
    }

    /// Pairs of paths equal when letter case is ignored.
    static func caseCollisions(_ paths: [String]) -> [[String]] {
        Dictionary(grouping: paths, by: { $0.lowercased() }).values.filter { $0.count > 1 }.map { $0.sorted() }
    }

    @Test("no two paths in the repository differ only in letter case")
    func noCaseOnlyDifferences() {
        let paths = Self.repositoryPaths(under: Self.packageRoot)
        #expect(paths.contains("Sources/Sesame"), "the walk must see the tree it checks")
        #expect(Self.caseCollisions(paths) == [])
    }

    @Test("the check finds a case-only pair")
    func checkFindsCollisions() {
        #expect(Self.caseCollisions(["Sources/Sesame", "Sources/sesame", "Tests"]) == [["Sources/Sesame", "Sources/sesame"]])
        #expect(Self.caseCollisions(["Sources/Sesame", "Sources/sesame-cli"]) == [])
    }
}
