#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame secret-service` as a user runs it: the account's vault served on
/// a private session bus, judged by libsecret's `secret-tool` (SPEC D9, D10).
@Suite("sesame secret-service", .serialized)
struct SecretServiceCommandTests {
    @Test("without a session bus it says so and exits 7 (not available)")
    func noBus() async throws {
        let result = try await SesameBinary.run(["secret-service"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"])
        #expect(result.status == 7)
        #expect(result.stderr.contains("DBUS_SESSION_BUS_ADDRESS is not set"), "\(result.stderr)")
    }

    @Test("D10, D9: secret-tool stores in the vault, finds, reads and clears; sesame ls shows the item by its label and attributes (--json adds them); the file shows no name")
    func secretToolOnTheVault() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: SecretTool.path), "needs libsecret-tools")
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await Self.serving(home, ["--no-interaction"]) { bus in
            let stored = try await SecretTool.run(bus, ["store", "--label=Mail account", "service", "mail-example", "user", "ana"], input: "pässwörd 1")
            #expect(stored.status == 0, "\(stored.output)")
            let lookup = try await SecretTool.run(bus, ["lookup", "service", "mail-example", "user", "ana"])
            #expect(lookup.status == 0, "\(lookup.output)")
            #expect(lookup.output == "pässwörd 1")
            let search = try await SecretTool.run(bus, ["search", "--all", "user", "ana"])
            #expect(search.output.contains("label = Mail account"), "\(search.output)")
            #expect(search.output.contains("attribute.service = mail-example"), "\(search.output)")

            // The item is the vault's own: sesame lists it under the collection's service.
            let listed = try await home.sesame(["ls", "--no-interaction"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("secret-service/"), "\(listed.stdout)")
            // Shown by what the owner knows it by, not only its digest: the
            // label and the attributes its client looks it up with.
            let row = listed.stdout.split(separator: "\n").first { $0.contains("secret-service") } ?? ""
            #expect(row.contains("Mail account") && row.contains("service=mail-example user=ana"), "\(listed.stdout)")
            #expect(listed.stdout.split(separator: "\n").first?.contains("ATTRIBUTES") == true, "\(listed.stdout)")
            let json = try await home.sesame(["ls", "--json", "--no-interaction"])
            #expect(json.stdout.contains("\"label\" : \"Mail account\""), "\(json.stdout)")
            #expect(json.stdout.contains("\"service\" : \"mail-example\""), "added, not replacing: \(json.stdout)")

            // Sealed at rest (D9): neither the attribute value nor the label is in the file.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: home.vault))
                + ((try? Data(contentsOf: URL(fileURLWithPath: home.vault + "-wal"))) ?? Data())
            for name in ["mail-example", "Mail account", "pässwörd 1"] {
                #expect(bytes.range(of: Data(name.utf8)) == nil, "\(name) is readable in the vault file")
            }

            let clear = try await SecretTool.run(bus, ["clear", "service", "mail-example"])
            #expect(clear.status == 0, "\(clear.output)")
            #expect(try await SecretTool.run(bus, ["lookup", "service", "mail-example", "user", "ana"]).status != 0)
        }
    }

    @Test("D10: an item under --default-access needs the owner; with no way to ask, secret-tool gets nothing")
    func protectedItemFailsClosedWithoutInteraction() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: SecretTool.path), "needs libsecret-tools")
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await Self.serving(home, ["--no-interaction", "--default-access", "device-passcode"]) { bus in
            let stored = try await SecretTool.run(bus, ["store", "--label=Bank", "service", "bank-example"], input: "s3cret value")
            #expect(stored.status == 0, "\(stored.output)")
            let lookup = try await SecretTool.run(bus, ["lookup", "service", "bank-example"])
            #expect(lookup.status != 0, "a protected item was read with no owner present: \(lookup.output)")
            #expect(!lookup.output.contains("s3cret value"))
            // Still listed (its attributes are not secret to the owner), still locked.
            let search = try await SecretTool.run(bus, ["search", "service", "bank-example"])
            #expect(search.output.contains("label = Bank"), "\(search.output)")
            #expect(!search.output.contains("s3cret value"))
        }
        // Nothing was lost: with the passcode the owner reads it (SPEC D3).
        let items = try await home.sesame(["ls", "--no-interaction"])
        #expect(items.stdout.contains("secret-service/"), "\(items.stdout)")
    }

    @Test("D10: when its session bus ends (a logout), secret-service exits instead of serving nobody")
    func exitsWithItsBus() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: SecretTool.path), "needs libsecret-tools")
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let bus = try await PrivateSessionBus.start()
        let server = try await bus.startDaemon(SesameBinary.url.path, ["secret-service", "--no-interaction"], environment: home.environment, log: "sesame.log")
        defer { server.stop() }
        try #require(try await SecretTool.waitForProvider(bus) && server.isRunning, "sesame secret-service did not start")
        bus.stop()
        for _ in 0..<600 where server.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!server.isRunning, "still running 30 s after its bus ended")
    }

    @Test("a bad --default-access or --unlock-seconds is a usage error (exit 2)")
    func badOptions() async throws {
        let access = try await SesameBinary.run(["secret-service", "--default-access", "fingers"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"])
        #expect(access.status == 2, "\(access.stderr)")
        let seconds = try await SesameBinary.run(["secret-service", "--unlock-seconds", "301"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"])
        #expect(seconds.status == 2, "\(seconds.stderr)")
        // No Secret Service client can give an application password: refused at start, with the reason, not at every CreateItem.
        for access in ["app-password", "biometry-any,app-password"] {
            let password = try await SesameBinary.run(["secret-service", "--default-access", access], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"])
            #expect(password.status == 2 && password.stderr.contains("no way to give one"), "\(access): \(password.stderr)")
        }
    }

    /// Runs `sesame secret-service` for `home` on a private session bus while `body` runs.
    private static func serving(_ home: VaultHome, _ arguments: [String], _ body: (PrivateSessionBus) async throws -> Void) async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let server = try await bus.startDaemon(SesameBinary.url.path, ["secret-service"] + arguments, environment: home.environment, log: "sesame.log")
        defer { server.stop() }
        let ready = try await SecretTool.waitForProvider(bus)
        let log = (try? String(contentsOfFile: bus.directory + "/sesame.log", encoding: .utf8)) ?? ""
        try #require(ready && server.isRunning, "sesame secret-service did not start: \(log)")
        try await body(bus)
    }
}
#endif
