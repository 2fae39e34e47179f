import Foundation
import Testing

/// SPEC D9 through the real `sesame`: names with control characters are
/// refused (exit 11) wherever a name is made, an import file's hostile
/// names and dates are reported escaped and skipped, and nothing a person
/// reads carries a raw escape sequence.
@Suite("SPEC D9: hostile names and dates at the command line")
struct HostileImportTests {
    private let place: VaultHome

    init() async throws {
        place = try VaultHome()
        try await place.createVault()
    }

    static let clear = "\u{1B}[2J\u{1B}[H"
    static let clipboard = "\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}"

    /// Whether text a terminal would run: ESC, BEL, CSI (C1) or another control character but a line break or a tab.
    private func raw(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
    }

    /// The file `OutsideTextTests.fixture` (SesameTests) builds with the
    /// library's own export format: names with ESC [ 2J and OSC 52, dates in
    /// 3000, ±inf, NaN, 1e300, before 1970; two honest items.
    private var fixture: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile-export.sesame").path
    }

    @Test("SPEC D9: import reports the hostile items escaped and skips them; ls shows no raw ESC or BEL")
    func hostileImport() async throws {
        defer { place.remove() }
        let imported = try await place.sesame(["import", fixture, "--passphrase-fd", "3", "--no-interaction"], secret: "hostile")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("Added 2 items."), "\(imported.stderr)")
        #expect(imported.stderr.contains("Skipped 10 items"), "\(imported.stderr)")
        #expect(imported.stderr.contains("name\\e[2J\\e[H") && imported.stderr.contains("osc52\\e]52;c;ZWNobyBwd25lZA==\\a"), "\(imported.stderr)")
        #expect(imported.stderr.contains("year-3000: Not imported: its date is in the future"), "\(imported.stderr)")
        #expect(!raw(imported.stderr) && !raw(imported.stdout), "\(imported.stderr)")
        let listed = try await place.sesame(["ls"])
        #expect(listed.status == 0 && !raw(listed.stdout))
        let rows = listed.stdout.split(separator: "\n").dropFirst().map { $0.components(separatedBy: "  ").filter { !$0.isEmpty } }
        #expect(Set(rows.map { $0[1] }) == ["honest", "a-little-ahead"], "\(listed.stdout)")
        let json = try await place.sesame(["ls", "--json"])
        #expect(!json.stdout.contains("3000") && !raw(json.stdout))
    }

    @Test("SPEC D9: put, key create and otp add refuse a name with a control character: exit 11, the name shown escaped, nothing stored")
    func refusedNames() async throws {
        defer { place.remove() }
        let attempts: [([String], Data?)] = [
            (["put", "x" + Self.clear, "--no-interaction"], Data("v".utf8)),
            (["put", "x", "--service", "s" + Self.clipboard, "--no-interaction"], Data("v".utf8)),
            (["put", "x", "--label", "tab\there", "--no-interaction"], Data("v".utf8)),
            (["key", "create", "k" + Self.clear, "--algorithm", "ed25519", "--access", "none", "--no-interaction"], nil),
            (["otp", "add", "o" + Self.clipboard, "--no-interaction"], Data("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ\n".utf8)),
        ]
        for (arguments, stdin) in attempts {
            let result = try await place.sesame(arguments, stdin: stdin)
            #expect(result.status == 11, "\(arguments.map { $0.debugDescription }): \(result.stderr)")
            #expect(result.stderr.contains("control character") && !raw(result.stderr), "\(result.stderr.debugDescription)")
        }
        #expect(try await place.sesame(["ls"]).output.isEmpty)
        #expect(try await place.sesame(["key", "ls"]).output.isEmpty)
        // A lookup quotes the name it was given: escaped too.
        let missing = try await place.sesame(["get", "y" + Self.clear, "--no-interaction"])
        #expect(missing.status == 3 && missing.stderr.contains("y\\e[2J") && !raw(missing.stderr), "\(missing.stderr.debugDescription)")
    }
}
