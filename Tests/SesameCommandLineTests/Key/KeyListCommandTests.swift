import Foundation
import Testing

/// `sesame key ls` for a person and for a script: on a terminal, columns
/// under a header as `sesame ls` prints them; piped, the tab-separated rows
/// without a header that scripts have always read.
@Suite("sesame key ls: a header on a terminal, the tab-separated rows in a pipe")
struct KeyListCommandTests {
    @Test("SPEC D7, D9: on a terminal, key ls names its columns (SERVICE NAME ALGORITHM ACCESS FINGERPRINT, CONSTRAINTS where a key has some); piped, rows only")
    func headerOnATerminal() async throws {
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        for (name, extra) in [("deploy", [String]()), ("jump", ["--no-forwarding"])] {
            let created = try await place.script(["key", "create", name, "--algorithm", "ed25519", "--access", "none"] + extra)
            try #require(created.status == 0, "\(created.stderr)")
        }
        let session = try TerminalSession(arguments: ["key", "ls", "--no-interaction"], environment: place.environment)
        let (status, screen) = await session.finish()
        #expect(status == 0, "\(screen)")
        let lines = screen.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let header = try #require(lines.firstIndex { $0.hasPrefix("SERVICE") }, "no header: \(screen)")
        #expect(lines[header].split(separator: " ", omittingEmptySubsequences: true) == ["SERVICE", "NAME", "ALGORITHM", "ACCESS", "FINGERPRINT", "CONSTRAINTS"])
        let rows = lines[(header + 1)...].map { $0.split(separator: #/ {2,}/#).map(String.init) }
        #expect(rows.contains { $0.count == 6 && $0[1] == "deploy" && $0[5] == "-" }, "\(rows)")
        #expect(rows.contains { $0.count == 6 && $0[1] == "jump" && $0[5] == "no-forwarding" }, "\(rows)")

        let piped = try await place.script(["key", "ls"])
        #expect(!piped.stdout.contains("SERVICE"), "a script reads rows only: \(piped.stdout)")
        #expect(piped.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("sesame\t") }, "\(piped.stdout)")
    }
}
