#if os(Linux)
import Foundation
import Testing
@testable import SesameLinuxTesting

/// A SoftwareTPM that cannot start says why: a full run once failed with
/// "swtpm did not start:" and nothing after the colon. Each test stands in a
/// small script for swtpm, so the failure is certain and its reason known.
@Suite("SoftwareTPM: a start that fails says why")
struct SoftwareTPMTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-fake-swtpm-\(UUID().uuidString)").path

    /// An executable shell script standing in for swtpm.
    func fakeSwtpm(_ body: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/swtpm"
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    func matches(_ text: String, _ pattern: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }

    /// The message `start` fails with.
    func failure(swtpm: String, readiness: Duration = .seconds(60), attempts: Int = 4) async -> String? {
        do {
            let tpm = try await SoftwareTPM.start(swtpm: swtpm, readiness: readiness, attempts: attempts)
            tpm.stop()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("swtpm exiting at once: its exit status, what it wrote and the ports it was given; not retried")
    func exitsWithError() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let swtpm = try fakeSwtpm(#"echo "swtpm: Could not open TCP socket: Permission denied" >&2; exit 3"#)
        let message = try #require(await failure(swtpm: swtpm))
        #expect(message.contains("exited with status 3"), "\(message)")
        #expect(message.contains("swtpm wrote: swtpm: Could not open TCP socket: Permission denied"), "\(message)")
        #expect(matches(message, "attempt 1 on ports [0-9]+ and [0-9]+: swtpm exited"), "\(message)")
        #expect(!message.contains("attempt 2"), "a failure that is not a port collision is not retried: \(message)")
    }

    @Test("A port taken meanwhile is retried with other ports, and every attempt's reason is kept")
    func collisionIsRetried() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let swtpm = try fakeSwtpm(#"echo "swtpm: Could not open TCP socket: Address already in use" >&2; exit 1"#)
        let message = try #require(await failure(swtpm: swtpm, attempts: 3))
        for attempt in 1...3 {
            #expect(matches(message, "attempt \(attempt) on ports [0-9]+ and [0-9]+: swtpm exited with status 1"), "\(message)")
        }
        #expect(!message.contains("attempt 4"), "\(message)")
    }

    @Test("swtpm that never answers: the bound it waited and what the last probe found")
    func neverAnswers() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let swtpm = try fakeSwtpm("exec sleep 600")
        let message = try #require(await failure(swtpm: swtpm, readiness: .milliseconds(500)))
        #expect(message.contains("did not answer within"), "\(message)")
        #expect(message.contains("listens on neither or only one of the ports"), "\(message)")
        #expect(message.contains("swtpm wrote nothing"), "\(message)")
    }

    @Test("A missing swtpm says so")
    func missing() async {
        let message = await failure(swtpm: directory + "/no-such-swtpm")
        #expect(message?.contains("no-such-swtpm is missing") == true, "\(String(describing: message))")
    }
}
#endif
