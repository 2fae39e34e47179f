import Foundation
import Glibc
import Sesame
import SesameTesting
import Testing

/// `sesame ssh-agent` with a `biometry-current-set` key against the real
/// fprintd (virtual reader) and the real OpenSSH: `ssh` logs in to an `sshd`
/// on 127.0.0.1 after a matching scan and is refused after non-matching ones;
/// `ssh-keygen -Y sign` waits for the finger; an enrolment change ends the
/// key. The agent runs in a terminal so the test sees its prompt.
@Suite(
    "sesame ssh-agent: a finger for every signature, real fprintd and sshd",
    .serialized,
    .timeLimit(.minutes(3)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
             && FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"),
             "needs fprintd, dbus-daemon, python3-dbusmock, util-linux's script and openssh-server")
)
struct SSHAgentFprintdTests {
    /// An sshd of the test's own on 127.0.0.1 that accepts `authorizedKey` for root.
    private final class SSHServer: @unchecked Sendable {
        let port = Int.random(in: 20_000...60_000)
        let pidFile: String

        init(home: String, authorizedKey: String) async throws {
            try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
            let hostKey = home + "/ssh_host_ed25519_key"
            _ = try await SesameBinary.run(["-q", "-t", "ed25519", "-N", "", "-f", hostKey], environment: ["PATH": "/usr/bin:/bin"],
                                           executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
            try Data(authorizedKey.utf8).write(to: URL(fileURLWithPath: home + "/authorized_keys"))
            let config = """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(hostKey)
                AuthorizedKeysFile \(home)/authorized_keys
                PubkeyAuthentication yes
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                UsePAM no
                StrictModes no
                PermitRootLogin prohibit-password
                PidFile \(home)/sshd.pid
                """
            try Data(config.utf8).write(to: URL(fileURLWithPath: home + "/sshd_config"))
            pidFile = home + "/sshd.pid"
            // Daemonised (no -D): no long-lived child of the test process.
            let started = try await SesameBinary.run(["-f", home + "/sshd_config"], environment: ["PATH": "/usr/bin:/bin"],
                                                     executable: URL(fileURLWithPath: "/usr/sbin/sshd"))
            try #require(started.status == 0, "sshd did not start: \(started.stderr)")
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: pidFile) { try await Task.sleep(for: .milliseconds(20)) }
        }

        func stop() {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGTERM)
            }
        }
    }

    @Test("issue 15, SPEC D5, D7: ssh logs in after a matching scan, is refused after non-matching ones; after a new finger the key signs nothing")
    func sshLogin() async throws {
        try #require(getuid() == 0, "sshd and the login run as root, as in CI")
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let place = try VaultHome(systemBus: harness.systemBusAddress)
        defer { place.remove() }
        try await place.createVault()
        let created = try await place.sesame(["key", "create", "login", "--service", "ssh", "--algorithm", "ed25519", "--access", "biometry-current-set"])
        #expect(created.status == 0, "\(created.stderr)")
        let server = try await SSHServer(home: place.home, authorizedKey: created.stdout)
        defer { server.stop() }

        let socket = place.file("run/ssh-agent.sock")
        let agentSession = try TerminalSession(arguments: ["ssh-agent", "--socket", socket], environment: place.environment)
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(25)) }
        var client = place.environment
        client["SSH_AUTH_SOCK"] = socket
        let sshArguments = ["-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
                            "-o", "ConnectTimeout=20", "-p", "\(server.port)", "root@127.0.0.1", "echo logged-in-by-finger"]

        let listed = try await SesameBinary.run(["-L"], environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh-add"))
        #expect(listed.stdout == created.stdout, "listing never prompts: \(listed.stderr)")

        async let login = SesameBinary.run(sshArguments, environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh"))
        try await agentSession.waitUntilScanning(harness)
        #expect(agentSession.text.contains("SSH: log in to the host with key SHA256:"), "session-bind names the host: \(agentSession.text)")
        try await harness.scan("owner")
        let loggedIn = try await login
        #expect(loggedIn.status == 0 && loggedIn.stdout == "logged-in-by-finger\n", "\(loggedIn.stdout) \(loggedIn.stderr)")

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

        let before = agentSession.text.components(separatedBy: "Touch the fingerprint reader").count
        async let refused = SesameBinary.run(sshArguments, environment: client, executable: URL(fileURLWithPath: "/usr/bin/ssh"))
        for _ in 0..<3 {
            try await agentSession.waitUntilScanning(harness)
            try await harness.scan("stranger")
            try await Task.sleep(for: .milliseconds(300))
        }
        let denied = try await refused
        #expect(denied.status != 0 && !denied.stdout.contains("logged-in"), "\(denied.stdout) \(denied.stderr)")
        #expect(agentSession.text.components(separatedBy: "Touch the fingerprint reader").count > before)

        // A second finger enrolled: the key is dead, refused before any scan.
        try await harness.enrol(finger: "right-middle-finger", scanID: "intruder")
        let publicKey = place.file("login.pub"), message = place.file("message")
        try Data(created.output).write(to: URL(fileURLWithPath: publicKey))
        try Data("x".utf8).write(to: URL(fileURLWithPath: message))
        let signed = try await SesameBinary.run(["-Y", "sign", "-f", publicKey, "-n", "file", message], environment: client,
                                                executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        #expect(signed.status != 0, "\(signed.stderr)")
        agentSession.process.terminate()
    }
}
