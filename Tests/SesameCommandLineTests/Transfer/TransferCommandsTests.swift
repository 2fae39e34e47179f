import Foundation
import Sesame
import SesameTesting
import Testing

/// `sesame import` and the parts of `sesame export` that come before the
/// owner is asked (SPEC D2). The export files are made with the library on a
/// simulated sensor, so these run without fprintd; `ExportCommandTests`
/// runs the real export against fprintd's virtual reader.
@Suite("sesame export and import")
struct TransferCommandsTests: VaultHomeSuite {
    let place: VaultHome

    /// No system bus and no PAM service: nothing can verify the owner.
    init() throws {
        place = try VaultHome()
    }

    /// `sesame … --no-interaction` with `secret` on descriptor 3, never in an
    /// argument or the output.
    private func sesame(_ arguments: [String], stdin: Data? = nil, secret: String? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin, secret: secret)
    }

    /// An export of `items` (account → value, service "sesame") plus one
    /// ThisDeviceOnly item, written by the library after a simulated match.
    private func exportFile(_ items: [String: [UInt8]], passphrase: String) async throws -> String {
        let sensor = SimulatedSensor()
        let authenticators = Authenticators(appName: "sesame tests", sensor: sensor)
        let source = try await Vault.create(at: home + "/source/vault.sqlite", slots: [.device()], authenticators: authenticators).vault
        for (account, value) in items {
            try await source.items.add(SecretBytes(value), service: "sesame", account: account)
        }
        try await source.items.add(SecretBytes(utf8: "local"), service: "sesame", account: "local", accessibility: .whenUnlockedThisDeviceOnly)
        sensor.present(.match)
        let report = try await source.export(passphrase: SecretBytes(utf8: passphrase), cost: .testing, operationPrompt: "Back up")
        #expect(report.transferred == items.count)
        let file = home + "/export-\(UUID().uuidString).sesame"
        try Data(report.file).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test("SPEC D2: import adds the items byte-exact and keeps existing ones, reported as conflicts")
    func importKeepsExisting() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let token: [UInt8] = [0x00, 0xff, 0x0a, 0x7f]
        let file = try await exportFile(["token": token, "note": Array("from the file".utf8)], passphrase: "long export passphrase")
        #expect(try await sesame(["init", "--passcode-fd", "3", "--scrypt-log2n", "10"], secret: "vault pass").status == 0)
        #expect(try await sesame(["put", "note"], stdin: Data("mine".utf8)).status == 0)

        let imported = try await sesame(["import", file, "--passphrase-fd", "3"], secret: "long export passphrase")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.output.isEmpty)
        #expect(imported.stderr.contains("Added 1 item."), "\(imported.stderr)")
        #expect(imported.stderr.contains("Kept 1 existing item") && imported.stderr.contains("sesame/note"), "\(imported.stderr)")
        #expect(try await sesame(["get", "token"]).output == Data(token))
        #expect(try await sesame(["get", "note"]).stdout == "mine", "never overwritten")
        #expect(try await sesame(["get", "local"]).status == 3, "ThisDeviceOnly items are not in the file")

        // Again from standard input: everything is there already.
        let again = try await sesame(["import", "-", "--passphrase-fd", "3"], stdin: try Data(contentsOf: URL(fileURLWithPath: file)),
                                     secret: "long export passphrase")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("Added 0 items.") && again.stderr.contains("Kept 2 existing items"), "\(again.stderr)")
    }

    @Test("SPEC D2: a wrong passphrase exits 4, a flipped byte exits 9; nothing is imported")
    func importRefusals() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let file = try await exportFile(["token": Array("t".utf8)], passphrase: "right phrase")
        #expect(try await sesame(["init", "--passcode-fd", "3", "--scrypt-log2n", "10"], secret: "vault pass").status == 0)

        let wrong = try await sesame(["import", file, "--passphrase-fd", "3"], secret: "wrong phrase")
        #expect(wrong.status == 4, "\(wrong.stderr)")

        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes[bytes.count / 2] ^= 0x01
        let flipped = home + "/flipped.sesame"
        try bytes.write(to: URL(fileURLWithPath: flipped))
        let damaged = try await sesame(["import", flipped, "--passphrase-fd", "3"], secret: "right phrase")
        #expect(damaged.status == 9, "\(damaged.stderr)")

        let notExport = home + "/not-an-export"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notExport))
        #expect(try await sesame(["import", notExport, "--passphrase-fd", "3"], secret: "right phrase").status == 9)

        let listed = try await sesame(["ls"])
        #expect(listed.status == 0 && listed.output.isEmpty, "nothing was imported: \(listed.stdout)")
    }

    @Test("SPEC D2: export keeps an existing file without --force; where nothing can ask the owner it carries the unprotected items and names the rest")
    func exportRefusals() async throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try await sesame(["init", "--passcode-fd", "3", "--scrypt-log2n", "10"], secret: "vault pass").status == 0)
        #expect(try await sesame(["put", "k"], stdin: Data("v".utf8)).status == 0)
        #expect(try await sesame(["put", "guarded", "--access", "user-presence"], stdin: Data("g".utf8)).status == 0)
        let existing = home + "/existing.sesame"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))

        let kept = try await sesame(["export", existing, "--passphrase-fd", "3", "--scrypt-log2n", "10"], secret: "export words")
        #expect(kept.status == 1, "\(kept.stderr)")
        #expect(kept.stderr.contains("--force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("keep me".utf8))

        // No fingerprint reader and no PAM service: the owner cannot be asked,
        // so only what opening the vault already gives leaves it.
        let partial = try await sesame(["export", existing, "--force", "--passphrase-fd", "3", "--scrypt-log2n", "10", "--json"], secret: "export words")
        #expect(partial.status == 0, "\(partial.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(partial.stdout.utf8)) as? [String: Any]
        #expect(report?["transferred"] as? Int == 1, "\(partial.stdout)")
        let skipped = report?["skipped"] as? [[String: Any]] ?? []
        #expect(skipped.count == 1 && skipped.first?["name"] as? String == "guarded", "\(partial.stdout)")
        #expect((skipped.first?["reason"] as? String)?.contains("nothing on this machine can ask") == true, "\(partial.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) != Data("keep me".utf8), "replaced: --force")
    }
}
