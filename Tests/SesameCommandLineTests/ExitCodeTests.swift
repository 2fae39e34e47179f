import Foundation
import Testing

/// Each exit code of `docs/guides/cli.md`'s table, made once, the way its
/// "made by" column says; the table and `sesame help exit-codes` agree.
@Suite("Exit codes: one table, each code made once")
struct ExitCodeTests {
    private static let guide = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/guides/cli.md")

    @Test("The CLI guide's table gives every code with the meaning `help exit-codes` prints")
    func tableMatchesHelp() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let page = try await SesameBinary.run(["help", "exit-codes"], environment: home.environment.merging(["COLUMNS": "500"]) { $1 })
        let table = try String(contentsOf: Self.guide, encoding: .utf8)
        for code in 0...13 {
            let line = try #require(page.stdout.split(separator: "\n").first { $0.hasPrefix("  \(code)\t") }, "help lacks \(code)")
            let meaning = line.dropFirst("  \(code)\t".count)
            #expect(table.contains("| \(code) | `") && table.contains("| \(meaning) |"), "cli.md's row \(code) should say: \(meaning)")
        }
    }

    @Test("0, 1, 2, 3, 4, 6, 7, 9, 10, 11 and 12, each from what the table names (5 and 8 need a person: see their tests)")
    func eachCode() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        // 0: ok.
        #expect(try await home.script(["put", "k"], stdin: Data("v".utf8)).status == 0)
        // 1: an error the message names.
        try Data("keep".utf8).write(to: URL(fileURLWithPath: home.file("existing")))
        let kept = try await home.script(["export", home.file("existing"), "--passphrase-fd", "3"], secret: "export passphrase")
        #expect(kept.status == 1 && kept.stderr.contains("--force"), "\(kept.stderr)")
        // 2: usage.
        #expect(try await home.script(["get", "k", "--no-such-option"]).status == 2)
        // 3: no such item, and no vault at the path.
        #expect(try await home.script(["get", "missing"]).status == 3)
        let noVault = try await home.script(["ls", "--vault", home.file("nowhere/vault.sqlite")])
        #expect(noVault.status == 3 && noVault.stderr.contains("sesame init"), "\(noVault.stderr)")
        // 7: neither a reader nor a PAM service can answer.
        let unavailable = try await home.script(["authenticate"])
        #expect(unavailable.status == 7, "\(unavailable.stderr)")
        // 11: a name with a control character.
        #expect(try await home.script(["put", "bad\u{1B}name"], stdin: Data("v".utf8)).status == 11)
        // 12: an agent socket in a folder others can enter (issue 44 finding 1).
        try FileManager.default.createDirectory(atPath: home.file("open"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let untrusted = try await home.script(["ssh-agent", "--print-env", "--socket", home.file("open/agent.sock")])
        #expect(untrusted.status == 12 && untrusted.stderr.contains("open to other users") && untrusted.stdout.isEmpty, "\(untrusted.stderr)")

        // A vault that a vault passcode alone opens.
        let passcodeOnly = ["--vault", home.file("p/vault.sqlite")]
        let created = try await home.script(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3"] + passcodeOnly,
                                            secret: VaultHome.passcode)
        try #require(created.status == 0, "\(created.stderr)")
        // 10: the vault passcode is needed and nothing may ask for it.
        #expect(try await home.script(["ls"] + passcodeOnly).status == 10)
        // 4: a wrong vault passcode; the fifth in a row starts a delay (6),
        // and the sixth, the right one, is refused unchecked (6).
        for attempt in 1...5 {
            let wrong = try await home.script(["ls", "--passcode-fd", "3"] + passcodeOnly, secret: "wrong \(attempt)")
            #expect(wrong.status == (attempt < 5 ? 4 : 6), "attempt \(attempt): \(wrong.stderr)")
        }
        let locked = try await home.script(["ls", "--passcode-fd", "3"] + passcodeOnly, secret: VaultHome.passcode)
        #expect(locked.status == 6 && locked.stderr.contains("nothing was checked"), "\(locked.stderr)")

        // 9: a vault file others can read.
        #expect(chmod(home.vault, 0o644) == 0)
        let exposed = try await home.script(["ls"])
        #expect(exposed.status == 9, "\(exposed.stderr)")
    }
}
