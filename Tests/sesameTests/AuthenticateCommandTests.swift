import Foundation
import Sesame
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
    final class TerminalSession: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private let screen = Locked(Data())
        private let reader: Thread

        init(arguments: [String], environment: [String: String]) throws {
            // `exec`: script runs the command through `sh -c`; a shell left in
            // the terminal's foreground group would die of the Ctrl-C itself.
            let command = "exec " + ([SesameBinary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["--quiet", "--return", "--flush", "--command", command, "/dev/null"]
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            let handle = output.fileHandleForReading
            let screen = self.screen
            reader = Thread {
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    screen.withLock { $0.append(chunk) }
                }
            }
            try process.run()
            reader.start()
        }

        var text: String { screen.withLock { String(decoding: $0, as: UTF8.self) } }

        func type(_ text: String) {
            input.fileHandleForWriting.write(Data(text.utf8))
        }

        /// Waits until the terminal shows `needle`.
        func waitForScreen(_ needle: String, seconds: Double = 20) async throws {
            let deadline = Date().addingTimeInterval(seconds)
            while !text.contains(needle) {
                guard Date() < deadline else { throw EnvironmentError("the terminal never showed \(needle): \(text)") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        /// Waits for the exit on a thread of its own, not on the concurrency
        /// pool; a session still running after `seconds` is ended (its
        /// terminal hangs up) so a lost scan fails the test instead of hanging it.
        func finish(seconds: Double = 30) async -> (status: Int32, screen: String) {
            let process = self.process
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    let deadline = Date().addingTimeInterval(seconds)
                    while process.isRunning && Date() < deadline { usleep(10_000) }
                    if process.isRunning { process.terminate() }
                    process.waitUntilExit()
                    continuation.resume()
                }.start()
            }
            try? await Task.sleep(for: .milliseconds(50))
            return (process.terminationStatus, text)
        }
    }

    struct EnvironmentError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private func environment(_ harness: FprintdHarness, home: String) -> [String: String] {
        // A reuse key of its own: a match here must not land in the real user's window.
        ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb", "DBUS_SYSTEM_BUS_ADDRESS": harness.systemBusAddress,
         "SESAME_REUSE_SCOPE": "test-" + UUID().uuidString]
    }

    /// Waits until sesame's verify is running: a retry hint sent to the
    /// reader shows on the terminal. Scans sent before that can be lost by
    /// the virtual reader while the claim is being set up.
    private func waitForScan(_ harness: FprintdHarness, _ session: TerminalSession) async throws {
        try await session.waitForScreen("Touch the fingerprint reader")
        let hints = session.text.components(separatedBy: "not centred").count
        // The reader drops commands while it is still being opened: the hint
        // is sent again until one shows.
        for _ in 0..<10 {
            try await harness.retry(2)
            let deadline = Date().addingTimeInterval(2)
            while session.text.components(separatedBy: "not centred").count == hints, Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            if session.text.components(separatedBy: "not centred").count > hints { return }
        }
        throw EnvironmentError("no retry hint shown: \(session.text)")
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
        try await waitForScan(harness, session)
        try await harness.scan("owner")
        let (status, screen) = await session.finish()
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
        try await waitForScan(harness, failing)
        for attempt in 1...3 {
            try await harness.scan("stranger")
            if attempt < 3 {
                try await failing.waitForScreen("\(3 - attempt) attempt")
                try await waitForScan(harness, failing)
            }
        }
        let failed = await failing.finish()
        #expect(failed.status == 4)
        #expect(failed.screen.contains("Not recognised. 2 attempts left."))

        let cancelled = try TerminalSession(arguments: arguments, environment: environment(harness, home: home))
        try await waitForScan(harness, cancelled)
        cancelled.type("\u{03}")
        let result = await cancelled.finish()
        #expect(result.status == 5)
        #expect(result.screen.contains("cancelled"))
        // Released: the real fprintd-verify can claim the reader right away.
        #expect(try await harness.fprintdVerify(scanID: "owner"))
    }
}
