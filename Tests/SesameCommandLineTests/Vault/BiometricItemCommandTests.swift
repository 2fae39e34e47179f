import Foundation
import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame get` of a `biometry-current-set` item against the real fprintd on
/// the virtual reader: a scan opens it; a second finger enrolled afterwards
/// invalidates it for good (SPEC D5), with exit code 8.
@Suite(
    "sesame get: biometric items, real fprintd",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct BiometricItemCommandTests {
    private typealias TerminalSession = AuthenticateCommandTests.TerminalSession

    private static let passcodeFile = NSTemporaryDirectory() + "sesame-bio-passcode-\(UUID().uuidString)"

    private func environment(_ harness: FprintdHarness, home: String) -> [String: String] {
        ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb", "DBUS_SYSTEM_BUS_ADDRESS": harness.systemBusAddress,
         "SESAME_REUSE_SCOPE": KeyringScope.of(home: home)]
    }

    @Test("SPEC A5, A10: with no terminal, display or session bus, get of a finger item exits 10 saying why and never claims the reader: a touch meant for something else completes nothing unseen (issue 44)")
    func nothingShownNothingScanned() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-bio-\(UUID().uuidString)"
        defer { KeyringScope.remove(home: home) }
        let passcodeFile = home + ".passcode"
        try Data("correct horse battery".utf8).write(to: URL(fileURLWithPath: passcodeFile))
        defer { try? FileManager.default.removeItem(atPath: passcodeFile) }
        let environment = environment(harness, home: home)
        let created = try await SesameBinary.run(["init", "--scrypt-log2n", "10", "--passcode-fd", "3"],
                                                 environment: environment, descriptor3: passcodeFile)
        #expect(created.status == 0, "\(created.stderr)")
        let secret = "deploy-key-\(UUID().uuidString)"
        let put = try await SesameBinary.run(["put", "finger", "--access", "biometry-any"], environment: environment, stdin: Data(secret.utf8))
        #expect(put.status == 0, "\(put.stderr)")

        // setsid: no controlling terminal either, as from cron or a service.
        let reading = Task {
            try await SesameBinary.run(["--wait", SesameBinary.url.path, "get", "finger"], environment: environment,
                                       executable: URL(fileURLWithPath: "/usr/bin/setsid"))
        }
        // The owner touches the reader, for something else: on a reader
        // claimed unseen, this scan would open the item.
        let touched = await (try? harness.scan("owner")) != nil
        let read = try await reading.value
        #expect(read.status == 10, "\(read.stderr)")
        #expect(read.output.isEmpty && !read.stderr.contains(secret))
        #expect(read.stderr.contains("interaction is not allowed") && read.stderr.contains("a prompt needs a terminal"), "\(read.stderr)")
        #expect(!touched, "the reader was claimed with no prompt shown")
    }

    @Test("SPEC D1, D5: a scan opens a biometry-current-set item; after a second finger is enrolled, get exits 8 and biometry-any still opens")
    func currentSetThenInvalidated() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-bio-\(UUID().uuidString)"
        defer { KeyringScope.remove(home: home) }
        try Data("correct horse battery".utf8).write(to: URL(fileURLWithPath: Self.passcodeFile))
        defer { try? FileManager.default.removeItem(atPath: Self.passcodeFile) }
        let environment = environment(harness, home: home)

        let created = try await SesameBinary.run(["init", "--scrypt-log2n", "10", "--passcode-fd", "3"],
                                                 environment: environment, descriptor3: Self.passcodeFile)
        #expect(created.status == 0, "\(created.stderr)")
        let secret = "deploy-key-\(UUID().uuidString)"
        for (name, access) in [("current", "biometry-current-set"), ("any", "biometry-any")] {
            let put = try await SesameBinary.run(["put", name, "--access", access], environment: environment, stdin: Data(secret.utf8))
            #expect(put.status == 0, "\(put.stderr)")
        }

        let reading = try TerminalSession(arguments: ["get", "current", "--reason", "Deploy"], environment: environment)
        try await reading.waitUntilScanning(harness)
        try await harness.scan("owner")
        let read = await reading.finish()
        #expect(read.status == 0, "\(read.screen)")
        #expect(read.screen.contains("sesame: Deploy"))
        #expect(read.screen.contains(secret))

        // Someone adds their own finger: the item bound to the old set is dead.
        // (After the owner's finger in fprintd's order: its "any" verify tries only the first.)
        try await harness.enrol(finger: "right-middle-finger", scanID: "intruder")
        let invalidated = try await SesameBinary.run(["get", "current", "--no-interaction"], environment: environment)
        #expect(invalidated.status == 8, "\(invalidated.stderr)")
        #expect(invalidated.output.isEmpty)
        #expect(!invalidated.stderr.contains(secret))
        // Still dead with a scan offered: it is the item, not the prompt.
        let again = try TerminalSession(arguments: ["get", "current"], environment: environment)
        let againResult = await again.finish(seconds: 10)
        #expect(againResult.status == 8, "\(againResult.screen)")
        #expect(!againResult.screen.contains(secret))

        // biometry-any follows the new set: the owner's finger still opens it.
        let any = try TerminalSession(arguments: ["get", "any"], environment: environment)
        try await any.waitUntilScanning(harness)
        try await harness.scan("owner")
        let anyResult = await any.finish()
        #expect(anyResult.status == 0, "\(anyResult.screen)")
        #expect(anyResult.screen.contains(secret))
    }
}
