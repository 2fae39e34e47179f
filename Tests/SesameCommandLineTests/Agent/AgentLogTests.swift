#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import SesameTesting
import Testing

/// Refusals nobody could read (SPEC D4: every failure says why): a daemon whose standard error goes
/// nowhere writes each refusal, with its reason, to
/// `$HOME/.local/state/sesame/<daemon>.log` (0600), never a secret.
@Suite("A background daemon's refusals go to its log under the state folder", .serialized, .timeLimit(.minutes(2)))
struct AgentLogTests {
    static func log(_ place: VaultHome, _ daemon: String) -> String { place.home + "/.local/state/sesame/\(daemon).log" }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test("SPEC D4: ssh-agent --print-env: ssh sees only failure; the reason (ssh-rsa for an unmarked key) is in ssh-agent.log, 0600")
    func agentStartedByPrintEnv() async throws {
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let created = try await place.script(["key", "create", "deploy", "--service", "ssh", "--algorithm", "rsa-2048", "--access", "none"])
        try #require(created.status == 0, "\(created.stderr)")
        let socket = place.file("bg/ssh-agent.sock")
        let started = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: place.environment)
        try #require(started.status == 0, "\(started.stderr)")
        let pid = try #require(started.stdout.split(separator: "=").last.flatMap { Int32($0.prefix { $0.isNumber }) })
        defer { kill(pid, SIGTERM) }
        // An ssh-rsa (SHA-1) signature asked of a key not marked --allow-sha1: refused, as OpenSSH's clients only hear "failure".
        let script = """
            import base64, socket, struct, sys
            blob = base64.b64decode(sys.argv[2].split()[1])
            def string(b): return struct.pack('>I', len(b)) + b
            body = bytes([13]) + string(blob) + string(b'data to sign') + struct.pack('>I', 0)
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            s.sendall(struct.pack('>I', len(body)) + body)
            print(list(s.recv(16)))
            """
        let asked = try await SesameBinary.run(["-c", script, socket, created.stdout], environment: place.environment,
                                               executable: URL(fileURLWithPath: TestPython.path))
        #expect(asked.stdout.contains("[0, 0, 0, 1, 5]"), "\(asked.stdout) \(asked.stderr)")
        let path = Self.log(place, "ssh-agent")
        var text = ""
        for _ in 0..<600 where !text.contains("refused") {
            text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if !text.contains("refused") { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(text.contains("refused") && text.contains("ssh-rsa (SHA-1)") && text.contains("--allow-sha1"), "\(path): \(text)")
        #expect(Self.mode(path) == 0o600)
    }

    @Test("SPEC D4: an agent --print-env started that stops at once is told with its own reason from the log, not \"run `sesame ssh-agent`\", the command being run")
    func agentThatDidNotStart() async throws {
        let place = try VaultHome()
        defer { place.remove() }
        // No vault: the agent started in the background stops at once, saying so in its log.
        let started = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", place.file("bg/ssh-agent.sock")], environment: place.environment)
        #expect(started.status != 0)
        #expect(started.stderr.contains("the agent did not start: ") && started.stderr.contains(place.vault), "\(started.stderr)")
        #expect(started.stderr.contains(Self.log(place, "ssh-agent")), "\(started.stderr)")
        #expect(!started.stderr.contains("run `sesame ssh-agent`"), "\(started.stderr)")
    }

    @Test("SPEC D4, D10: secret-service with standard error on /dev/null: a locked item and a prompt that can ask nobody are told in secret-service.log")
    func secretServiceWithDiscardedStandardError() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: SecretTool.path), "needs libsecret-tools")
        try #require(PrivateSessionBus.missingComponents.isEmpty, "needs \(PrivateSessionBus.missingComponents)")
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let command = TerminalSession.quoted([SesameBinary.url.path, "secret-service", "--no-interaction", "--default-access", "device-passcode"])
        let server = try await bus.startDaemon("/bin/sh", ["-c", "exec \(command) 2>/dev/null"], environment: place.environment, log: "sesame.log")
        defer { server.stop() }
        try #require(try await SecretTool.waitForProvider(bus) && server.isRunning, "sesame secret-service did not start")
        let stored = try await SecretTool.run(bus, ["store", "--label=Bank", "service", "bank-example"], input: "s3cret value")
        #expect(stored.status == 0, "\(stored.output)")
        let lookup = try await SecretTool.run(bus, ["lookup", "service", "bank-example"])
        #expect(lookup.status != 0)
        let path = Self.log(place, "secret-service")
        var text = ""
        for _ in 0..<600 where !text.contains("opened nothing") {
            text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if !text.contains("opened nothing") { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(text.contains("the prompt of") && text.contains("opened nothing"), "\(path): \(text)")
        #expect(!text.contains("s3cret value"))
        #expect(Self.mode(path) == 0o600)
    }
}
#endif
