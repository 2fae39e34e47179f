import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// A lock ends what the owner allowed before (SPEC D14), against the real
/// fprintd (virtual reader) with a fake logind on the same private system
/// bus: the agent's `--reuse` grant ends at `Lock` and at
/// `PrepareForSleep(true)` even when the session is unlocked again at once,
/// and a prompt showing at the lock is cancelled.
@Suite(
    "Session lock: the agent's reuse and a showing prompt, real fprintd",
    .serialized,
    .timeLimit(.minutes(3)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script"),
    .enabled(if: LockAndStatusCommandTests.keyringAvailable, "keyctl is blocked here (container?): there is no window to reuse")
)
struct SessionLockFprintdTests {
    @Test("D14, A6: the agent's --reuse grant ends at Lock and at PrepareForSleep(true): ssh-keygen -Y sign asks for the finger again")
    func agentReuseEndsAtLock() async throws {
        let place = try await SessionLockPlace.start()
        defer { place.stop() }
        try await place.home.createVault()
        let created = try await SesameBinary.run(
            ["key", "create", "login", "--service", "ssh", "--algorithm", "ed25519", "--access", "biometry-any", "--no-interaction"],
            environment: place.environment)
        try #require(created.status == 0, "\(created.stderr)")

        let socket = place.home.file("run/ssh-agent.sock")
        let agent = try TerminalSession(arguments: ["ssh-agent", "--socket", socket, "--reuse", "60"], environment: place.environment)
        defer { agent.process.terminate() }
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(25)) }
        var client = place.environment
        client["SSH_AUTH_SOCK"] = socket
        let publicKey = place.home.file("login.pub"), message = place.home.file("message")
        try created.output.write(to: URL(fileURLWithPath: publicKey))
        try Data("release 1.0\n".utf8).write(to: URL(fileURLWithPath: message))
        let arguments = ["-Y", "sign", "-f", publicKey, "-n", "file", message]
        try await signWithFinger(arguments, client, agent, place.harness)
        // Within the grant: no finger.
        #expect(try await sign(arguments, client).status == 0)

        for (lock, unlock) in [
            ({ try await place.logind.lock("2") }, { try await place.logind.unlock("2") }),
            ({ try await place.logind.prepareForSleep(true) }, { try await place.logind.prepareForSleep(false) }),
        ] as [(() async throws -> Void, () async throws -> Void)] {
            let ended = agent.text.components(separatedBy: "has ended").count
            try await lock()
            // The agent says so in its log the moment it ended the grant.
            for _ in 0..<1200 where agent.text.components(separatedBy: "has ended").count == ended {
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(agent.text.components(separatedBy: "has ended").count > ended, "\(agent.text)")
            try await unlock()
            // Unlocked again at once, yet the grant is gone: the finger is asked for.
            try await signWithFinger(arguments, client, agent, place.harness)
            #expect(try await sign(arguments, client).status == 0)
        }
    }

    private func sign(_ arguments: [String], _ client: [String: String]) async throws -> SesameBinary.Result {
        if let message = arguments.last { try? FileManager.default.removeItem(atPath: message + ".sig") }
        return try await SesameBinary.run(arguments, environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
    }

    private func signWithFinger(_ arguments: [String], _ client: [String: String], _ agent: TerminalSession, _ harness: FprintdHarness) async throws {
        async let signing = sign(arguments, client)
        try await agent.waitUntilScanning(harness)
        try await harness.scan("owner")
        let signed = try await signing
        #expect(signed.status == 0, "\(signed.stderr)")
    }

    @Test("D14, A3: a lock while the finger is being asked for cancels the prompt: exit 13, saying the session locked")
    func lockCancelsPrompt() async throws {
        let place = try await SessionLockPlace.start()
        defer { place.stop() }
        try await place.home.createVault()
        let put = try await SesameBinary.run(["put", "token", "--access", "biometry-any", "--no-interaction"],
                                             environment: place.environment, stdin: Data("s3cret".utf8))
        try #require(put.status == 0, "\(put.stderr)")

        let session = try TerminalSession(arguments: ["get", "token"], environment: place.environment)
        try await session.waitUntilScanning(place.harness)
        try await place.logind.lock("2")
        let finished = await session.finish()
        #expect(finished.status == 13, "\(finished.screen)")
        #expect(finished.screen.contains("locked"), "\(finished.screen)")
        #expect(!finished.screen.contains("s3cret"))
        // The reader was let go: after unlock, the next get scans and opens.
        try await place.logind.unlock("2")
        let again = try TerminalSession(arguments: ["get", "token"], environment: place.environment)
        try await again.waitUntilScanning(place.harness)
        try await place.harness.scan("owner")
        let opened = await again.finish()
        #expect(opened.status == 0, "\(opened.screen)")
        #expect(opened.screen.contains("s3cret"))
    }
}
