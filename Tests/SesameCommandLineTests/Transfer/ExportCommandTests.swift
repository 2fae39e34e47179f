import Foundation
import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame export` for real: the owner is verified by fprintd on the
/// virtual reader, the passphrase typed on a terminal (util-linux `script`),
/// and the file imported into another vault by `sesame import`.
@Suite(
    "sesame export",
    .serialized,
    .timeLimit(.minutes(2)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct ExportCommandTests {
    struct EnvironmentError: Error, CustomStringConvertible {
        let description: String
    }

    private func environment(_ harness: FprintdHarness, home: String, vault: String) -> [String: String] {
        ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb", "DBUS_SYSTEM_BUS_ADDRESS": harness.systemBusAddress, "SESAME_VAULT": vault,
         "SESAME_REUSE_SCOPE": KeyringScope.of(home: home)]
    }

    private func secretFile(_ secret: String, in home: String) -> String {
        let file = home + "/secret-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: file, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        return file
    }


    @Test("SPEC D2, D9: export after a fingerprint match writes a 0600 file without ThisDeviceOnly items, naming each skipped item and why; import elsewhere gets the bytes exactly")
    func exportThenImport() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-export-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { KeyringScope.remove(home: home) }
        let source = home + "/source/vault.sqlite", target = home + "/target/vault.sqlite"
        let passphrase = "typed export phrase 42"

        for vault in [source, target] {
            let created = try await SesameBinary.run(["init", "--passcode-fd", "3", "--scrypt-log2n", "10", "--no-interaction"],
                                                     environment: environment(harness, home: home, vault: vault),
                                                     descriptor3: secretFile("vault pass", in: home))
            try #require(created.status == 0, "\(created.stderr)")
        }
        let value = Data([0x01, 0x00, 0xfe, 0x0a])
        let sourceEnvironment = environment(harness, home: home, vault: source)
        #expect(try await SesameBinary.run(["put", "portable", "--no-interaction"], environment: sourceEnvironment, stdin: value).status == 0)
        #expect(try await SesameBinary.run(["put", "local", "--accessibility", "when-unlocked-this-device-only", "--no-interaction"],
                                           environment: sourceEnvironment, stdin: Data("stays".utf8)).status == 0)
        // SPEC D7: a protected key never leaves, and the export says so.
        #expect(try await SesameBinary.run(["key", "create", "signer", "--algorithm", "ed25519", "--access", "none", "--no-interaction"],
                                           environment: sourceEnvironment).status == 0)

        let file = home + "/backup.sesame"
        let session = try AuthenticateCommandTests.TerminalSession(
            arguments: ["export", file, "--scrypt-log2n", "10", "--reason", "Back up the vault"], environment: sourceEnvironment)
        try await session.waitForScreen("Export passphrase")
        session.type(passphrase + "\r")
        try await session.waitForScreen("Repeat the passphrase")
        session.type(passphrase + "\r")
        try await session.waitUntilScanning(harness)
        try await harness.scan("owner")
        let (status, screen) = await session.finish()
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("Back up the vault"))
        #expect(screen.contains("Exported 1 item"), "\(screen)")
        // Every skipped item by name and why, counted (the key is one).
        #expect(screen.contains("Skipped 2 items:"), "\(screen)")
        #expect(screen.contains("  sesame/local: ThisDeviceOnly: it never leaves this device"), "\(screen)")
        #expect(screen.contains("  sesame/signer: key \"signer\" is a private key; private keys never leave this device"), "\(screen)")
        #expect(!screen.contains(passphrase), "typed masked, never shown")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let exported = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(!exported.isEmpty && exported.range(of: value) == nil, "the value is encrypted")

        let imported = try await SesameBinary.run(["import", file, "--passphrase-fd", "3", "--no-interaction"],
                                                  environment: environment(harness, home: home, vault: target),
                                                  descriptor3: secretFile(passphrase, in: home))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("Added 1 item."))
        #expect(!imported.stderr.contains(passphrase) && !imported.stdout.contains(passphrase))
        let targetEnvironment = environment(harness, home: home, vault: target)
        #expect(try await SesameBinary.run(["get", "portable", "--no-interaction"], environment: targetEnvironment).output == value)
        #expect(try await SesameBinary.run(["get", "local", "--no-interaction"], environment: targetEnvironment).status == 3)
        #expect(try await SesameBinary.run(["key", "ls", "--no-interaction"], environment: targetEnvironment).stdout.isEmpty)

        // The same report as one JSON document on standard output.
        let json = try AuthenticateCommandTests.TerminalSession(
            arguments: ["export", home + "/again.sesame", "--scrypt-log2n", "10", "--json"], environment: sourceEnvironment)
        try await json.waitForScreen("Export passphrase")
        json.type(passphrase + "\r")
        try await json.waitForScreen("Repeat the passphrase")
        json.type(passphrase + "\r")
        try await json.waitUntilScanning(harness)
        try await harness.scan("owner")
        let (jsonStatus, jsonScreen) = await json.finish()
        #expect(jsonStatus == 0, "\(jsonScreen)")
        #expect(jsonScreen.contains(#""transferred" : 1"#), "\(jsonScreen)")
        #expect(jsonScreen.contains(#""name" : "signer""#) && jsonScreen.contains(#""name" : "local""#), "\(jsonScreen)")
        #expect(!jsonScreen.contains("Exported 1 item"), "the report is not printed twice")
    }
}
