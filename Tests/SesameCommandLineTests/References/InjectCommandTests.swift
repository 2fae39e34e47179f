import Foundation
import Testing

/// `sesame inject`: a template's `{{ sesame://… }}` placeholders replaced,
/// into a 0600 file that is never overwritten without --force.
@Suite("sesame inject")
struct InjectCommandTests {
    private static let template = """
        url: https://example.org
        token: {{ sesame://deploy/api-token }}
        password: {{sesame://deploy/db%2Fpassword}}
        again: {{   sesame://deploy/api-token   }}
        helm: {{ .Values.image }} and {{ not a reference }}

        """

    private func prepared() async throws -> VaultHome {
        let home = try VaultHome()
        try await home.createVault()
        try await home.put("api-token", Data("tok-1234".utf8), arguments: ["--service", "deploy"])
        try await home.put("db/password", Data("p@ss word".utf8), arguments: ["--service", "deploy"])
        try Data(Self.template.utf8).write(to: URL(fileURLWithPath: home.file("config.tpl")))
        return home
    }

    @Test("Placeholders become the values; other braces pass through; the file is 0600")
    func renders() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let result = try await home.script(["inject", "-i", home.file("config.tpl"), "-o", home.file("config")], secret: VaultHome.passcode)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.isEmpty)
        let written = try String(contentsOfFile: home.file("config"), encoding: .utf8)
        #expect(written == """
            url: https://example.org
            token: tok-1234
            password: p@ss word
            again: tok-1234
            helm: {{ .Values.image }} and {{ not a reference }}

            """)
        let mode = try FileManager.default.attributesOfItem(atPath: home.file("config"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("Standard input to standard output when -i and -o are absent")
    func standardStreams() async throws {
        let home = try await prepared()
        defer { home.remove() }
        let result = try await home.script(["inject", "--passcode-fd", "3"], stdin: Data("a={{ sesame://deploy/api-token }};".utf8),
                                           secret: VaultHome.passcode)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "a=tok-1234;")
    }

    @Test("An existing file is kept without --force, replaced with it")
    func neverOverwritesUnasked() async throws {
        let home = try await prepared()
        defer { home.remove() }
        try Data("precious".utf8).write(to: URL(fileURLWithPath: home.file("config")))
        let refused = try await home.script(["inject", "-i", home.file("config.tpl"), "-o", home.file("config")], secret: VaultHome.passcode)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--force"))
        #expect(FileManager.default.contents(atPath: home.file("config")) == Data("precious".utf8))

        let forced = try await home.script(["inject", "-i", home.file("config.tpl"), "-o", home.file("config"), "--force"],
                                           secret: VaultHome.passcode)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: home.file("config"), encoding: .utf8).contains("token: tok-1234"))
        let mode = try FileManager.default.attributesOfItem(atPath: home.file("config"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("A missing item exits 3 and writes nothing")
    func missingItem() async throws {
        let home = try await prepared()
        defer { home.remove() }
        try Data("a: {{ sesame://deploy/api-token }}\nb: {{ sesame://deploy/missing }}\n".utf8)
            .write(to: URL(fileURLWithPath: home.file("bad.tpl")))
        let result = try await home.script(["inject", "-i", home.file("bad.tpl"), "-o", home.file("out")], secret: VaultHome.passcode)
        #expect(result.status == 3)
        #expect(result.stderr.contains("no item missing in service deploy"))
        #expect(!home.exists("out"))
    }

    @Test("A broken placeholder is a usage error (2) naming its line and column, and writes nothing",
          arguments: ["x\n  {{ sesame://deploy/api-token\n", "{{ sesame://deploy/a b }}", "{{ sesame://deploy }}", "{{ sesame://deploy/a%zz }}"])
    func brokenPlaceholder(template: String) async throws {
        let home = try await prepared()
        defer { home.remove() }
        try Data(template.utf8).write(to: URL(fileURLWithPath: home.file("bad.tpl")))
        let result = try await home.script(["inject", "-i", home.file("bad.tpl"), "-o", home.file("out")], secret: VaultHome.passcode)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(home.file("bad.tpl") + ":"))
        #expect(!home.exists("out"))
    }
}
