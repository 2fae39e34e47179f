import Foundation
import Testing

/// The vault guide's backup and restore, run as written: each `sh` block
/// after a `<!-- backup: … -->` marker in `docs/guides/vault.md`.
@Suite("SPEC D2: the vault guide's backup and restore")
struct BackupGuideTests {
    private static let guide = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/guides/vault.md")

    /// The `sh` block that follows `<!-- backup: name -->`.
    private static func block(_ name: String) throws -> String {
        let text = try String(contentsOf: guide, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- backup: \(name) -->\n```sh\n"), "docs/guides/vault.md lost its \(name) step")
        let end = try #require(text.range(of: "\n```", range: marker.upperBound..<text.endIndex))
        return String(text[marker.upperBound..<end.lowerBound])
    }

    @Test("SPEC D2: a passcode-only vault (the quick start's) is backed up and restored with its vault passcode and an export passphrase alone")
    func backupAndRestore() async throws {
        let old = try VaultHome(), new = try VaultHome()
        defer { old.remove(); new.remove() }
        let work = old.file("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let created = try await old.sesame(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3", "--no-interaction"],
                                           secret: VaultHome.passcode)
        try #require(created.status == 0, "\(created.stderr)")
        try await old.put("api-token", Data("s3cr3t-token".utf8), arguments: ["--passcode-fd", "3"], secret: VaultHome.passcode)

        // The one change to the guide's text: the scrypt cost, since a debug
        // build takes minutes at the standard one.
        let prelude = #"""
            set -e
            sesame() { case "$1" in init|export) command sesame "$@" --scrypt-log2n 10 ;; *) command sesame "$@" ;; esac; }
            cd "$WORK"

            """#
        let secrets = ["PASSCODE_FILE": old.secretFile(VaultHome.passcode), "PASSPHRASE_FILE": old.secretFile("a long export passphrase"),
                       "WORK": work, "PATH": SesameBinary.url.deletingLastPathComponent().path + ":/usr/bin:/bin"]
        let wrote = try await SesameBinary.run(["-c", prelude + Self.block("write"), "sh"],
                                               environment: old.environment.merging(secrets) { $1 },
                                               executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(wrote.status == 0, "\(wrote.stderr)")
        #expect(wrote.stderr.contains("Exported 1 item"), "\(wrote.stderr)")

        let restored = try await SesameBinary.run(["-c", prelude + Self.block("restore"), "sh"],
                                                  environment: new.environment.merging(secrets) { $1 },
                                                  executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout == "s3cr3t-token", "\(restored.stderr)")
        #expect(FileManager.default.fileExists(atPath: new.vault))
    }
}
