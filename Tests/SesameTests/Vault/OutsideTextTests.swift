import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// SPEC D9: text and dates from outside. Names with control characters are
/// refused where an item or key is made; an import file's items with such
/// names, or with dates that are not finite or lie in the future, are
/// reported and skipped; what is shown is escaped.
@Suite("SPEC D9: names and dates from outside")
struct OutsideTextTests {
    static let clear = "\u{1B}[2J\u{1B}[H"
    static let clipboard = "\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}"

    /// The entries of the hostile import file (see `hostileExport`).
    static func hostileEntries(now: Double) -> [ExportFile.Entry] {
        func entry(_ account: String, service: String = "svc", label: String? = nil, created: Double = 1_700_000_000,
                   modified: Double? = nil) -> ExportFile.Entry {
            ExportFile.Entry(fields: ItemFields(service: service, account: account, label: label, accessibility: ItemAccessibility.whenUnlocked.rawValue,
                                                accessControl: Vault.noAccessControl.canonicalEncoding, created: created, modified: modified ?? created),
                             value: Array("value".utf8))
        }
        let year3000 = 32_503_680_000.0
        return [
            entry("honest"),
            entry("name" + clear), entry("osc52" + clipboard), entry("svc-name", service: "svc" + clear),
            entry("label", label: "l" + clipboard),
            entry("year-3000", created: year3000), entry("plus-inf", created: .infinity), entry("minus-inf", modified: -.infinity),
            entry("nan", created: .nan), entry("huge", modified: 1e300), entry("before-1970", created: -5),
            entry("a-little-ahead", created: now + 60),
        ]
    }

    @Test("SPEC D9: control characters (C0, DEL, C1, bidi overrides) are escaped visibly; other text is unchanged")
    func escaping() {
        #expect("a\u{1B}[2Jb".escapingControlCharacters() == "a\\e[2Jb")
        #expect(Self.clipboard.escapingControlCharacters() == "\\e]52;c;ZWNobyBwd25lZA==\\a")
        #expect("\t\n\r\u{0}\u{7F}\u{9B}31m\u{202E}".escapingControlCharacters() == "\\t\\n\\r\\x00\\x7f\\u{9b}31m\\u{202e}")
        #expect("line 1\nline\u{1B}2".escapingControlCharacters(keepingLineBreaks: true) == "line 1\nline\\e2")
        #expect("héllo wörld / \\ 🔑".escapingControlCharacters() == "héllo wörld / \\ 🔑")
        #expect(!"héllo".containsControlCharacters && "a\u{85}".containsControlCharacters)
    }

    @Test("SPEC D9: add, createKey and importKey refuse a service, name or label with a control character (invalidName)")
    func refusedNames() async throws {
        let fixture = try await TestVault()
        for (service, account, label) in [("svc", "a" + Self.clear, nil), ("s" + Self.clipboard, "a", nil), ("svc", "a", "l\u{9B}"), ("svc", "tab\there", nil)] as [(String, String, String?)] {
            let status = await fixture.status {
                try await fixture.vault.items.add(SecretBytes(utf8: "v"), service: service, account: account, label: label)
            }
            #expect(status == .invalidName, "\(account.escapingControlCharacters())")
            #expect(await fixture.status {
                _ = try await fixture.vault.keys.create(service: service, name: account, algorithm: .ed25519, label: label)
            } == .invalidName)
        }
        do {
            try await fixture.vault.items.add(SecretBytes(utf8: "v"), service: "svc", account: "x" + Self.clear)
            Issue.record("stored")
        } catch {
            #expect(!error.message.contains("\u{1B}") && error.message.contains("x\\e[2J"), "\(error.message)")
        }
        let items = try await fixture.vault.items.list(), keys = try await fixture.vault.keys.list()
        #expect(items.isEmpty && keys.isEmpty)
    }

    /// An OpenSSH Ed25519 key file whose comment is "fuzz\u{1}" (found by
    /// FuzzKeyImport: a comment length one byte longer takes in a padding byte).
    static let keyFileWithControlInComment = """
        -----BEGIN OPENSSH PRIVATE KEY-----
        b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
        QyNTUxOQAAACB7tS+3y/+8F0RdCn+4gmB70e3uI7xGpVPIK4jlT9T6JAAAAIjJyQMxyckD
        MQAAAAtzc2gtZWQyNTUxOQAAACB7tS+3y/+8F0RdCn+4gmB70e3uI7xGpVPIK4jlT9T6JA
        AAAECcyX0bx7OBrVqBCn2Ma1h5lGBwEVET7+gvz23GRIuZfHu1L7fL/7wXRF0Kf7iCYHvR
        7e4jvEalU8griOVP1PokAAAABWZ1enoB
        -----END OPENSSH PRIVATE KEY-----

        """

    @Test("SPEC D9: a key file's comment with a control character does not refuse the key; the label keeps it escaped, while a label the caller gives is refused")
    func keyFileComment() async throws {
        let fixture = try await TestVault()
        let file = SecretBytes(Array(Self.keyFileWithControlInComment.utf8))
        let key = try await fixture.vault.keys.import(file, service: "ssh", name: "k")
        #expect(key.label == "fuzz\\x01" && key.algorithm == .ed25519)
        #expect(try await fixture.vault.keys.key(service: "ssh", name: "k").label == "fuzz\\x01")
        #expect(await fixture.status {
            _ = try await fixture.vault.keys.import(file, service: "ssh", name: "k2", label: "given\u{1}")
        } == .invalidName)
    }

    @Test("SPEC D9: import skips and reports items with control characters in a name or dates that are not finite or in the future; the rest arrives")
    func hostileImport() async throws {
        let fixture = try await TestVault()
        let now = fixture.machine.clock.now().timeIntervalSince1970
        let file = try ExportFile.write(Self.hostileEntries(now: now), passphrase: SecretBytes(utf8: "pp"), cost: .testing)
        let report = try await fixture.vault.importItems(from: file, passphrase: SecretBytes(utf8: "pp"))
        #expect(report.transferred == 2, "\(report.skipped)")
        #expect(Set(try await fixture.vault.items.list().map(\.account)) == ["honest", "a-little-ahead"])
        let reasons = Dictionary(report.skipped.map { ($0.account, $0.reason) }) { first, _ in first }
        #expect(report.skipped.count == 10)
        for account in ["year-3000", "plus-inf", "minus-inf", "nan", "huge", "before-1970"] {
            #expect(reasons[account]?.contains("date") == true, "\(account): \(reasons[account] ?? "imported")")
        }
        #expect(reasons["name" + Self.clear]?.contains("control character") == true)
        #expect(reasons["label"]?.contains("control character") == true)
        for item in try await fixture.vault.items.list() {
            #expect(item.created.timeIntervalSince1970.isFinite && item.modified.timeIntervalSince1970 <= now + OutsideText.allowedSkew)
        }
    }

    @Test("SPEC D9: The CLI's hostile import fixture holds exactly these entries (regenerate: SESAME_WRITE_FIXTURE=1)")
    func fixture() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/hostile-export.sesame").standardizedFileURL.path
        // Dates relative to a fixed "now" (2026-01-01): the CLI imports it later, so "a-little-ahead" is in the past there.
        let entries = Self.hostileEntries(now: 1_767_225_600)
        if ProcessInfo.processInfo.environment["SESAME_WRITE_FIXTURE"] == "1" {
            let file = try ExportFile.write(entries, passphrase: SecretBytes(utf8: "hostile"), cost: .testing)
            try Data(file).write(to: URL(fileURLWithPath: path))
        }
        let read = try ExportFile.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), passphrase: SecretBytes(utf8: "hostile"))
        #expect(read.map(\.account) == entries.map(\.account) && read.map(\.service) == entries.map(\.service))
        #expect(zip(read, entries).allSatisfy { $0.created.bitPattern == $1.created.bitPattern && $0.modified.bitPattern == $1.modified.bitPattern })
    }
}
