import Foundation
import Testing

/// Every test runs one Python, `TestPython.path`, the one `.ci/run`
/// installs modules for (issue 44: a test ran /usr/bin/python3 while CI had
/// installed python-fido2 for the pyenv `python3` first on PATH).
@Suite("One Python for the tests")
struct OnePythonTests {
    /// "path:line: text" for each line of a Swift test or harness that names
    /// an interpreter itself: the literal path, or a bare `python3` run
    /// through PATH (`env python3`, a shell's `python3 script`).
    static func strayInterpreters(in sources: [(path: String, text: String)]) -> [String] {
        let bare = try! Regex(#"("|\$\(|^\s*|;\s*|&&\s*)python3(\s+['"\\-]|"\s*,)"#)
        var found: [String] = []
        // Itself excepted: its own check quotes what it finds.
        for source in sources where !source.path.hasSuffix("TestPython.swift") && !source.path.hasSuffix("OnePythonTests.swift") {
            for (number, line) in source.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                if line.contains("\"/usr/bin/python3\"") || line.contains("\"/usr/bin/env\", \"python3\"") || line.firstMatch(of: bare) != nil {
                    found.append("\(source.path):\(number + 1): \(code)")
                }
            }
        }
        return found
    }

    @Test("no test or harness names an interpreter but TestPython.path")
    func oneInterpreter() throws {
        let root = RepositoryLayoutTests.packageRoot
        let paths = RepositoryLayoutTests.repositoryPaths(under: root).filter {
            ($0.hasPrefix("Tests/") || $0.hasPrefix("Sources/SesameLinuxTesting/")) && $0.hasSuffix(".swift")
        }
        let sources = try paths.map { (path: $0, text: try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
        #expect(sources.count > 100)
        #expect(Self.strayInterpreters(in: sources) == [])
    }

    @Test("the check finds a literal path, env python3 and a shell's python3")
    func checkFindsThem() {
        let sources = [
            (path: "Tests/A.swift", text: "let p = URL(fileURLWithPath: \"/usr/bin/python3\")\n// \"/usr/bin/python3\" in a comment\n"),
            (path: "Tests/B.swift", text: "run(\"/usr/bin/env\", [\"python3\", \"-c\", s])\n"),
            (path: "Tests/C.swift", text: "\"echo $(python3 'x.py')\"\n    python3 \\(file)\n"),
            (path: "Tests/D.swift", text: "run(TestPython.path, [\"-c\", s]) // needs python3 with fido2\n"),
        ]
        #expect(Self.strayInterpreters(in: sources) == [
            "Tests/A.swift:1: let p = URL(fileURLWithPath: \"/usr/bin/python3\")",
            "Tests/B.swift:1: run(\"/usr/bin/env\", [\"python3\", \"-c\", s])",
            "Tests/C.swift:1: \"echo $(python3 'x.py')\"",
            "Tests/C.swift:2: python3 \\(file)",
        ])
    }
}
