#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import Testing

/// The agent from the recommended shell line (`eval "$(sesame ssh-agent
/// --print-env)"`), shared by two shells, asks where the person is
/// (issue 47): on the asking client's terminal, never on the terminal of
/// the shell that started it, and refuses at once, saying nobody could be
/// asked, where there is neither a client terminal nor a display. Real
/// pseudo-terminals, the real OpenSSH `ssh-keygen`, the real Linux-PAM.
@Suite(
    "sesame ssh-agent: asks on the asking client's terminal, real terminals and PAM",
    .serialized,
    .timeLimit(.minutes(2)),
    .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
    .enabled(if: PAMTestService.isPwdfileInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs pam_pwdfile (libpam-pwdfile) and util-linux's script")
)
struct SSHAgentAskWhereTests {
    private static let password = "l0gin pass phrase"

    /// A vault with the key `ops` for ssh under `access` (the default when
    /// `nil`), its public key and a message to sign, in `place`.
    private static func prepare(_ place: VaultHome, access: String?) async throws -> (publicKey: String, message: String) {
        try await place.createVault()
        let created = try await place.sesame(["key", "create", "ops", "--service", "ssh", "--algorithm", "ed25519", "--no-interaction"]
                                             + (access.map { ["--access", $0] } ?? []))
        try #require(created.status == 0, "\(created.stderr)")
        let publicKey = place.file("ops.pub"), message = place.file("message")
        try created.output.write(to: URL(fileURLWithPath: publicKey))
        try Data("deploy\n".utf8).write(to: URL(fileURLWithPath: message))
        return (publicKey, message)
    }

    @Test("SPEC A5, D7, G: two terminals share one agent; a client in B is asked on B, never on A, though GPG_TTY names A")
    func askedOnTheClientsTerminal() async throws {
        let service = PAMTestService(password: Self.password)
        defer { service.remove() }
        try service.install()
        let place = try VaultHome()
        defer { place.remove() }
        let (publicKey, message) = try await Self.prepare(place, access: "device-passcode")
        let socket = place.file("run/ssh-agent.sock")

        // Shell A: the rc file's line, with GPG_TTY naming A as gpg's setup advises.
        let line = #"GPG_TTY=$(tty); export GPG_TTY; eval "$("$SESAME" ssh-agent --print-env --socket '"# + socket + "' --pam-service "
            + service.name + #")" && echo "agent=$SSH_AGENT_PID"; exec sleep 600"#
        let shellA = try TerminalSession(shellCommand: line, environment: place.environment)
        defer { shellA.process.terminate() }
        try await shellA.waitForScreen("agent=")
        let agent = try #require(shellA.text.split(separator: "agent=").last.flatMap { Int32($0.prefix { $0.isNumber }) })
        defer { kill(agent, SIGTERM) }

        // Shell B: a signature, in the foreground of B.
        let sign = TerminalSession.quoted(["/usr/bin/ssh-keygen", "-Y", "sign", "-f", publicKey, "-n", "file", message])
        let shellB = try TerminalSession(shellCommand: "SSH_AUTH_SOCK='\(socket)' \(sign); echo \"signed=$?\"", environment: place.environment)
        defer { shellB.process.terminate() }
        try await shellB.waitForScreen("wants to sign a file or commit with ops")
        try await shellB.waitForScreen("assword")
        shellB.type(Self.password + "\r")
        try await shellB.waitForScreen("signed=")
        #expect(shellB.text.contains("signed=0"), "\(shellB.text)")
        #expect(FileManager.default.fileExists(atPath: message + ".sig"))
        // A's screen has the agent's start and nothing of B's prompt, nor the password.
        #expect(!shellA.text.contains("wants to sign") && !shellA.text.contains("assword") && !shellA.text.contains("PIN")
                && !shellA.text.contains(Self.password), "\(shellA.text)")
    }

    @Test("SPEC A3, A10, G: no display and no client terminal: refused at once, the log says nobody could be asked, not cancelled")
    func nobodyToAsk() async throws {
        let service = PAMTestService(password: Self.password)
        defer { service.remove() }
        try service.install()
        let place = try VaultHome()
        defer { place.remove() }
        // The default access (user-presence): no reader here, so the login password.
        let (publicKey, message) = try await Self.prepare(place, access: nil)
        let socket = place.file("run/ssh-agent.sock")
        // A text login under systemd: a session bus, no display, no terminal for the detached agent.
        var environment = place.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(place.file("no-session-bus"))"
        let started = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket, "--pam-service", service.name],
                                                 environment: environment)
        try #require(started.status == 0, "\(started.stderr)")
        let agent = try #require(started.stdout.split(separator: "SSH_AGENT_PID=").last.flatMap { Int32($0.prefix { $0.isNumber }) })
        defer { kill(agent, SIGTERM) }

        // setsid: the client has no controlling terminal, whatever the test runner has.
        var client = environment
        client["SSH_AUTH_SOCK"] = socket
        let began = Date()
        let signed = try await SesameBinary.run(["--wait", "/usr/bin/ssh-keygen", "-Y", "sign", "-f", publicKey, "-n", "file", message],
                                                environment: client, stdin: Data(), executable: URL(fileURLWithPath: "/usr/bin/setsid"))
        #expect(signed.status != 0 && signed.stderr.contains("agent refused operation"), "\(signed.stderr)")
        #expect(Date().timeIntervalSince(began) < 10, "refused at once, not after a wait nobody could end")
        let logFile = place.file(".local/state/sesame/ssh-agent.log")
        var log = ""
        for _ in 0..<300 where !log.contains("refused") {
            log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(log.contains("nobody could be asked") && log.contains("`ssh-keygen` (pid ") && log.contains("no terminal")
                && log.contains("no display"), "\(log)")
        #expect(!log.contains("cancelled by the user"), "\(log)")
    }
}
#endif
