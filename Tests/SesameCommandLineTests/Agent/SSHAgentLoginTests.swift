import Foundation
import Glibc
import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing
import SesameSSH

/// `ssh` logs in to an `sshd` on 127.0.0.1 through `sesame ssh-agent` with a
/// `biometry-current-set` key, against the real fprintd (SPEC D7): after a
/// matching scan, and not after strangers' scans.
///
/// sshd and ssh run inside one shell script, so every process they make
/// stays a descendant of that shell: started straight from the test process,
/// sshd's exits stalled Foundation's reaping of the test's other children.
@Suite(
    "sesame ssh-agent: ssh logs in to sshd after a finger, real fprintd and OpenSSH",
    .serialized,
    .timeLimit(.minutes(2)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
             && FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"),
             "needs fprintd, dbus-daemon, python3-dbusmock, util-linux's script and openssh-server")
)
struct SSHAgentLoginTests {
    @Test("D7, A4: ssh logs in after a matching scan; after three strangers' scans it is refused")
    func sshLogin() async throws {
        try #require(getuid() == 0, "sshd and the login run as root, as in CI")
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let place = try VaultHome(systemBus: harness.systemBusAddress)
        defer { place.remove() }
        try await place.createVault()
        let created = try await place.sesame(["key", "create", "login", "--service", "ssh", "--algorithm", "ed25519", "--access", "biometry-current-set"])
        try #require(created.status == 0, "\(created.stderr)")

        let hostKey = place.file("ssh_host_ed25519_key")
        _ = try await SesameBinary.run(["-q", "-t", "ed25519", "-N", "", "-f", hostKey], environment: place.environment,
                                       executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        try created.output.write(to: URL(fileURLWithPath: place.file("authorized_keys")))

        let socket = place.file("run/ssh-agent.sock")
        let agentSession = try TerminalSession(arguments: ["ssh-agent", "--socket", socket], environment: place.environment)
        defer { agentSession.process.terminate() }
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(25)) }
        var environment = place.environment
        environment["SSH_AUTH_SOCK"] = socket
        let client = environment
        let login = { @Sendable in
            try await SSHServer.login(place: place, hostKey: hostKey, authorizedKeys: place.file("authorized_keys"),
                                      ssh: { ["-p", "\($0)", "root@127.0.0.1", "echo logged-in-by-finger"] }, environment: client)
        }
        async let loggingIn = login()
        try await agentSession.waitUntilScanning(harness)
        // The program that asks (its name as the kernel has it) and, from session-bind, the host.
        #expect(agentSession.text.contains("`ssh` (pid ") && agentSession.text.contains("wants to log in to the host with key SHA256:"),
                "session-bind names the host: \(agentSession.text)")
        try await harness.scan("owner")
        let loggedIn = try await loggingIn
        #expect(loggedIn.status == 0 && loggedIn.stdout == "logged-in-by-finger\n", "\(loggedIn.stdout) \(loggedIn.stderr)")

        async let refused = login()
        for _ in 0..<3 {
            try await agentSession.waitUntilScanning(harness)
            try await harness.scan("stranger")
            try await Task.sleep(for: .milliseconds(300))
        }
        let denied = try await refused
        #expect(denied.status != 0 && !denied.stdout.contains("logged-in"), "\(denied.stdout) \(denied.stderr)")
    }
}
