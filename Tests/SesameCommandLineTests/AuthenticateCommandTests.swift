import Foundation
import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame authenticate` in a real terminal session (util-linux `script`
/// gives it a pseudo-terminal as its controlling terminal), against the real
/// fprintd on the virtual reader.
@Suite(
    "sesame authenticate",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct AuthenticateCommandTests {
    typealias TerminalSession = SesameCommandLineTests.TerminalSession


    private func environment(_ harness: FprintdHarness, home: String) -> [String: String] {
        // A reuse key of its own: a match here must not land in the real user's window.
        ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb", "DBUS_SYSTEM_BUS_ADDRESS": harness.systemBusAddress,
         "SESAME_REUSE_SCOPE": KeyringScope.of(home: home)]
    }


    @Test("A3, G: A match exits 0, after the prompt and a retry hint were shown on the terminal")
    func match() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-auth-\(UUID().uuidString)"
        defer { KeyringScope.remove(home: home) }

        let session = try TerminalSession(arguments: ["authenticate", "--policy", "biometrics", "--reason", "Deploy to production"],
                                          environment: environment(harness, home: home))
        try await session.waitUntilScanning(harness)
        try await harness.scan("owner")
        let (status, screen) = await session.finish()
        #expect(status == 0)
        #expect(screen.contains("sesame: Deploy to production"))
        #expect(screen.contains("Touch the fingerprint reader"))
        #expect(screen.contains("Your finger was not centred on the sensor. Try again."))
        #expect(screen.contains("Authenticated."))
    }

    @Test("A3, A4: Three strangers exit 4; Ctrl-C exits 5 and releases the reader")
    func failAndCancel() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-auth-\(UUID().uuidString)"
        defer { KeyringScope.remove(home: home) }
        let arguments = ["authenticate", "--policy", "biometrics"]

        let failing = try TerminalSession(arguments: arguments, environment: environment(harness, home: home))
        try await failing.waitUntilScanning(harness)
        for attempt in 1...3 {
            try await harness.scan("stranger")
            if attempt < 3 {
                try await failing.waitForScreen("\(3 - attempt) attempt")
                try await failing.waitUntilScanning(harness)
            }
        }
        let failed = await failing.finish()
        #expect(failed.status == 4)
        #expect(failed.screen.contains("Not recognised. 2 attempts left."))

        let cancelled = try TerminalSession(arguments: arguments, environment: environment(harness, home: home))
        try await cancelled.waitUntilScanning(harness)
        cancelled.type("\u{03}")
        let result = await cancelled.finish()
        #expect(result.status == 5)
        #expect(result.screen.contains("cancelled"))
        // Released: the real fprintd-verify can claim the reader right away.
        #expect(try await harness.fprintdVerify(scanID: "owner"))
    }
}
