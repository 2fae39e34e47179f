import Foundation
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
    /// A running `sesame authenticate` in a terminal, typed into through `script`.
    final class TerminalSession {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(arguments: [String], environment: [String: String]) throws {
            let command = ([SesameBinary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["--quiet", "--return", "--flush", "--command", command, "/dev/null"]
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
        }

        func type(_ text: String) {
            input.fileHandleForWriting.write(Data(text.utf8))
        }

        func finish() -> (status: Int32, screen: String) {
            process.waitUntilExit()
            let screen = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, screen)
        }
    }

    private func environment(_ harness: FprintdHarness, home: String) -> [String: String] {
        ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb", "DBUS_SYSTEM_BUS_ADDRESS": harness.systemBusAddress]
    }

    private func waitForScan(_ harness: FprintdHarness) async throws {
        // The reader's commands queue until sesame has claimed it.
        try await harness.retry(2)
    }

    @Test("A match exits 0, after the prompt and a retry hint were shown on the terminal")
    func match() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-auth-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }

        let session = try TerminalSession(arguments: ["authenticate", "--policy", "biometrics", "--reason", "Deploy to production"],
                                          environment: environment(harness, home: home))
        try await waitForScan(harness)
        try await harness.scan("owner")
        let (status, screen) = session.finish()
        #expect(status == 0)
        #expect(screen.contains("sesame: Deploy to production"))
        #expect(screen.contains("Touch the fingerprint reader"))
        #expect(screen.contains("Your finger was not centred on the sensor. Try again."))
        #expect(screen.contains("Authenticated."))
    }

    @Test("Three strangers exit 4; Ctrl-C exits 5 and releases the reader")
    func failAndCancel() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-auth-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let arguments = ["authenticate", "--policy", "biometrics"]

        let failing = try TerminalSession(arguments: arguments, environment: environment(harness, home: home))
        for _ in 1...3 {
            try await harness.scan("stranger")
            try await Task.sleep(for: .milliseconds(150))
        }
        let failed = failing.finish()
        #expect(failed.status == 4)
        #expect(failed.screen.contains("Not recognised. 2 attempts left."))

        let cancelled = try TerminalSession(arguments: arguments, environment: environment(harness, home: home))
        try await waitForScan(harness)
        cancelled.type("\u{03}")
        let result = cancelled.finish()
        #expect(result.status == 5)
        #expect(result.screen.contains("cancelled"))
        // Released: the real fprintd-verify can claim the reader right away.
        #expect(try await harness.fprintdVerify(scanID: "owner"))
    }
}
