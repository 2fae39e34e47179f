import Foundation
import Glibc
import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing
import SesameSSH

/// `sesame ssh-agent` with a `biometry-current-set` key against the real
/// fprintd (virtual reader) and the real OpenSSH client tools: `ssh-keygen
/// -Y sign` through the agent waits for the finger and verifies; strangers'
/// fingers sign nothing; an enrolment change ends the key. The agent runs in
/// a terminal so the test sees its prompt.
@Suite(
    "sesame ssh-agent: a finger for every signature, real fprintd",
    .serialized,
    .timeLimit(.minutes(3)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct SSHAgentFprintdTests {
    @Test("SPEC D5, D7: ssh-keygen -Y signs through the agent after a matching scan (and verifies), not after non-matching ones; a client that hangs up cancels its prompt; after a new finger the key signs nothing")
    func sshLogin() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let place = try VaultHome(systemBus: harness.systemBusAddress)
        defer { place.remove() }
        try await place.createVault()
        let created = try await place.sesame(["key", "create", "login", "--service", "ssh", "--algorithm", "ed25519", "--access", "biometry-current-set"])
        #expect(created.status == 0, "\(created.stderr)")

        let socket = place.file("run/ssh-agent.sock")
        let agentSession = try TerminalSession(arguments: ["ssh-agent", "--socket", socket], environment: place.environment)
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(25)) }
        var client = place.environment
        client["SSH_AUTH_SOCK"] = socket
        let publicKey = place.file("login.pub"), message = place.file("message"), signers = place.file("allowed_signers")
        try Data(created.output).write(to: URL(fileURLWithPath: publicKey))
        try Data("release 1.0\n".utf8).write(to: URL(fileURLWithPath: message))
        try Data("me@ci \(created.stdout)".utf8).write(to: URL(fileURLWithPath: signers))
        let signArguments = ["-Y", "sign", "-f", publicKey, "-n", "file", message]

        let listed = try await SesameBinary.run(["-L"], environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh-add"))
        #expect(listed.stdout == created.stdout, "listing never prompts: \(listed.stderr)")

        async let signing = SesameBinary.run(signArguments, environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        try await agentSession.waitUntilScanning(harness)
        #expect(agentSession.text.contains("`ssh-keygen` (pid ") && agentSession.text.contains("wants to sign a file or commit with login"),
                "\(agentSession.text)")
        try await harness.scan("owner")
        let signed = try await signing
        #expect(signed.status == 0, "\(signed.stderr)")
        let verified = try await SesameBinary.run(["-Y", "verify", "-f", signers, "-I", "me@ci", "-n", "file", "-s", message + ".sig"],
                                                  environment: client, stdin: Data("release 1.0\n".utf8),
                                                  executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        try FileManager.default.removeItem(atPath: message + ".sig")

        // A client that hangs up while the agent waits for the finger cancels
        // its own prompt; the next request gets a prompt of its own.
        let abandonedKey = place.file("abandoned.pub"), abandonedMessage = place.file("abandoned")
        try created.output.write(to: URL(fileURLWithPath: abandonedKey))
        try Data("never signed".utf8).write(to: URL(fileURLWithPath: abandonedMessage))
        // A child the test process started itself: Foundation reaps it (an
        // orphan reparented here would not be, and would stall every wait).
        let abandoned = Process()
        abandoned.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        abandoned.arguments = ["-Y", "sign", "-f", abandonedKey, "-n", "file", abandonedMessage]
        abandoned.environment = client
        abandoned.standardInput = FileHandle.nullDevice
        abandoned.standardOutput = FileHandle.nullDevice
        abandoned.standardError = FileHandle.nullDevice
        try abandoned.run()
        try await agentSession.waitUntilScanning(harness)
        kill(abandoned.processIdentifier, SIGKILL)
        abandoned.waitUntilExit()
        try await agentSession.waitForScreen("Authentication was cancelled by the application", seconds: 10)
        #expect(!FileManager.default.fileExists(atPath: abandonedMessage + ".sig"))

        async let refused = SesameBinary.run(signArguments, environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        for _ in 0..<3 {
            try await agentSession.waitUntilScanning(harness)
            try await harness.scan("stranger")
            try await Task.sleep(for: .milliseconds(300))
        }
        let denied = try await refused
        #expect(denied.status != 0, "\(denied.stderr)")
        #expect(!FileManager.default.fileExists(atPath: message + ".sig"))

        // A second finger enrolled: the key is dead, refused before any scan.
        try await harness.enrol(finger: "right-middle-finger", scanID: "intruder")
        let dead = try await SesameBinary.run(signArguments, environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        #expect(dead.status != 0, "\(dead.stderr)")
        agentSession.process.terminate()
    }
}
