import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame status --watch --json` against the real fprintd (virtual reader)
/// and a fake logind on the same private system bus: one object per change,
/// an enrolment by another program and the session's lock among them
/// (SPEC A8, D14).
@Suite(
    "sesame status --watch: the authentication state as it changes, real fprintd",
    .serialized,
    .timeLimit(.minutes(3)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct StatusWatchTests {
    /// The JSON objects printed so far, one per line.
    private func objects(_ session: TerminalSession) -> [[String: Any]] {
        session.text.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("{") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any]
        }
    }

    private func waitForObject(_ session: TerminalSession, count: Int) async throws -> [String: Any] {
        for _ in 0..<1200 where objects(session).count < count { try await Task.sleep(for: .milliseconds(25)) }
        let printed = objects(session)
        try #require(printed.count >= count, "only \(printed.count) objects: \(session.text)")
        return printed[count - 1]
    }

    @Test("A8, D14: status --watch --json prints the state, then one object per change: a finger enrolled, the session locked, unlocked, going to sleep")
    func watch() async throws {
        let place = try await SessionLockPlace.start()
        defer { place.stop() }
        let (harness, logind, environment) = (place.harness, place.logind, place.environment)

        let watching = try TerminalSession(arguments: ["status", "--watch", "--json"], environment: environment)
        defer { watching.process.terminate() }
        let first = try await waitForObject(watching, count: 1)
        let firstBiometry = try #require(first["biometry"] as? [String: Any], "\(first)")
        #expect(firstBiometry["enrolled"] as? [String] == ["right-index-finger"])
        #expect(firstBiometry["available"] as? Bool == true)
        #expect((first["session"] as? [String: Any])?["condition"] as? String == "unlocked")

        // Another program enrols a finger: fprintd's EnrollStatus is the notice.
        try await harness.enrol(finger: "right-middle-finger", scanID: "second")
        let enrolled = try #require(try await waitForObject(watching, count: 2)["biometry"] as? [String: Any])
        #expect(Set(enrolled["enrolled"] as? [String] ?? []) == ["right-index-finger", "right-middle-finger"])
        #expect(enrolled["domainState"] as? String != firstBiometry["domainState"] as? String)

        try await logind.lock("2")
        let locked = try #require(try await waitForObject(watching, count: 3)["session"] as? [String: Any])
        #expect(locked["condition"] as? String == "locked")
        #expect(locked["locked"] as? Bool == true)
        try await logind.unlock("2")
        #expect((try await waitForObject(watching, count: 4)["session"] as? [String: Any])?["condition"] as? String == "unlocked")
        try await logind.prepareForSleep(true)
        #expect((try await waitForObject(watching, count: 5)["session"] as? [String: Any])?["condition"] as? String == "goingToSleep")
        // One object per change, no repeats.
        try await Task.sleep(for: .milliseconds(500))
        #expect(objects(watching).count == 5, "\(watching.text)")

        // The one-shot report has the session too, and the lock seen.
        try await logind.prepareForSleep(false)
        let status = try await SesameBinary.run(["status", "--json"], environment: environment)
        let report = try #require(JSONSerialization.jsonObject(with: status.output) as? [String: Any], "\(status.stdout)")
        let session = try #require(report["session"] as? [String: Any])
        #expect(session["condition"] as? String == "unlocked")
        #expect(session["session"] as? String == "2")
        #expect(session["lockSeenSinceBoot"] as? Bool == true)
        let text = try await SesameBinary.run(["status"], environment: environment).stdout
        #expect(text.contains("session          unlocked: session 2's LockedHint"), "\(text)")
    }
}
