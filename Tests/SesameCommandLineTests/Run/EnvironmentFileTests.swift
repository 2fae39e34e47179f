import Foundation
import Testing

/// `sesame run --env-file`: dotenv files whose values may be references.
@Suite("sesame run --env-file")
struct EnvironmentFileTests {
    private func prepared(_ file: String) async throws -> VaultHome {
        let home = try VaultHome()
        try await home.createVault()
        try await home.put("api-token", Data("tok-1234".utf8), arguments: ["--service", "deploy"])
        try await home.put("db/password", Data("p@ss word".utf8), arguments: ["--service", "deploy"])
        try Data(file.utf8).write(to: URL(fileURLWithPath: home.file(".env")))
        return home
    }

    /// Runs `env`-style printing of the given variables into a file (not
    /// through the masked output), and returns that file's lines.
    private func variables(_ names: [String], home: VaultHome, extra: [String] = []) async throws -> (SesameBinary.Result, [String]) {
        let script = "{ " + names.map { #"printf '%s=[%s]\n' \#($0) "$\#($0)""# }.joined(separator: "; ") + #"; } > "$1""#
        let result = try await home.sesame(["run", "--no-interaction", "--env-file", home.file(".env")] + extra
                                           + ["--", "/bin/sh", "-c", script, "sh", home.file("out")])
        let lines = (try? String(contentsOfFile: home.file("out"), encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        return (result, lines)
    }

    @Test("References become values; literals, quotes, export and comments follow dotenv")
    func dotenvSyntax() async throws {
        let home = try await prepared("""
            # a comment
            export TOKEN=sesame://deploy/api-token
            PASSWORD = "sesame://deploy/db%2Fpassword"   # trailing comment

            LITERAL='sesame://deploy/api-token'
            PLAIN=hello world # comment
            HASH=a#b
            ESCAPED="line1\\nline2 \\"q\\" \\$HOME"
            EMPTY=
            CRLF=yes\r
            """)
        defer { home.remove() }
        let (result, lines) = try await variables(["TOKEN", "PASSWORD", "LITERAL", "PLAIN", "HASH", "ESCAPED", "EMPTY", "CRLF"], home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines == ["TOKEN=[tok-1234]", "PASSWORD=[p@ss word]", "LITERAL=[sesame://deploy/api-token]", "PLAIN=[hello world]",
                          "HASH=[a#b]", "ESCAPED=[line1", "line2 \"q\" $HOME]", "EMPTY=[]", "CRLF=[yes]"])
    }

    @Test("--env and --env-file together; the same variable in both is refused (2) and nothing runs")
    func withEnv() async throws {
        let home = try await prepared("TOKEN=sesame://deploy/api-token\n")
        defer { home.remove() }
        try await home.put("other", Data("o".utf8), arguments: ["--service", "deploy"])
        let (both, lines) = try await variables(["TOKEN", "OTHER"], home: home, extra: ["--service", "deploy", "--env", "OTHER=other"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(lines == ["TOKEN=[tok-1234]", "OTHER=[o]"])

        try? FileManager.default.removeItem(atPath: home.file("out"))
        let (twice, none) = try await variables(["TOKEN"], home: home, extra: ["--service", "deploy", "--env", "TOKEN=other"])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("TOKEN is set twice"))
        #expect(none.isEmpty)
    }

    @Test("A missing referenced item exits 3 before anything is asked, and the command does not run")
    func missingItem() async throws {
        let home = try await prepared("A=sesame://deploy/api-token\nB=sesame://deploy/missing\n")
        defer { home.remove() }
        let (result, lines) = try await variables(["A"], home: home)
        #expect(result.status == 3)
        #expect(result.stderr.contains("no item missing in service deploy; the command was not run"))
        #expect(lines.isEmpty)
    }

    @Test("A malformed file is a usage error (2) naming FILE:LINE, and the command does not run",
          arguments: ["A=1\nnot a line\n", "1A=x\n", "A=1\nA=2\n", "A=\"open\n", "A='x' trailing\n", "A=\"\\q\"\n",
                      "A=sesame://deploy\n", "A=sesame://deploy/a b\n"])
    func malformed(file: String) async throws {
        let home = try await prepared(file)
        defer { home.remove() }
        let (result, lines) = try await variables(["A"], home: home)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(home.file(".env") + ":"))
        #expect(lines.isEmpty)
    }

    @Test("A file that cannot be read exits 1 and the command does not run")
    func unreadable() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let result = try await home.sesame(["run", "--env-file", home.file("absent.env"), "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot read the env file"))
        #expect(!home.exists("ran"))
    }
}
