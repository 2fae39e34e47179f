import Foundation
import SesameLinuxTesting
import Glibc
import Testing
import SesameSSH

/// `sesame ssh-agent` judged by the real OpenSSH client tools (SPEC D7):
/// `ssh-add` lists, adds, hides, locks; `ssh-keygen -Y` signs through the
/// agent and verifies. Keys here need no user check (no reader on this bus);
/// `SSHAgentFprintdTests` covers the finger for every use and `ssh` logins.
@Suite("sesame ssh-agent with OpenSSH's ssh-add and ssh-keygen", .serialized, .timeLimit(.minutes(2)))
struct SSHAgentCommandTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func sesame(_ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin)
    }

    private func startAgent(_ arguments: [String] = []) async throws -> AgentProcess {
        try await place.createVault()
        return try await AgentProcess(place: place, socket: place.file("run/sesame/ssh-agent.sock"), arguments: arguments)
    }

    @Test("SPEC D7: ssh-add -L lists the vault's SSH keys; ssh-keygen -Y sign through the agent verifies with ssh-keygen -Y verify")
    func listAndSign() async throws {
        defer { place.remove() }
        let agent = try await startAgent()
        defer { agent.stop() }
        var lines: [String] = []
        for (name, algorithm) in [("deploy", "ed25519"), ("laptop", "p256")] {
            let created = try await sesame(["key", "create", name, "--service", "ssh", "--algorithm", algorithm, "--access", "none", "--label", "\(name)@ci"])
            #expect(created.status == 0, "\(created.stderr)")
            lines.append(created.stdout)
        }
        _ = try await sesame(["key", "create", "not-ssh", "--service", "other", "--algorithm", "ed25519", "--access", "none"])
        _ = try await sesame(["key", "create", "inbox", "--service", "ssh", "--algorithm", "x25519", "--access", "none"])
        let listed = try await agent.client("ssh-add", ["-L"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(Set(listed.stdout.split(separator: "\n").map(String.init)) == Set(lines.map { $0.trimmingCharacters(in: .newlines) }))

        for (index, line) in lines.enumerated() {
            let publicKey = place.file("key\(index).pub"), message = place.file("message\(index)")
            try Data(line.utf8).write(to: URL(fileURLWithPath: publicKey))
            try Data("release \(index)\n".utf8).write(to: URL(fileURLWithPath: message))
            let signed = try await agent.client("ssh-keygen", ["-Y", "sign", "-f", publicKey, "-n", "file", message])
            #expect(signed.status == 0, "\(signed.stderr)")
            let principal = index == 0 ? "deploy@ci" : "laptop@ci"
            let signers = place.file("allowed\(index)")
            try Data("\(principal) \(line)".utf8).write(to: URL(fileURLWithPath: signers))
            let verified = try await agent.client("ssh-keygen", ["-Y", "verify", "-f", signers, "-I", principal, "-n", "file", "-s", message + ".sig"],
                                                  stdin: try Data(contentsOf: URL(fileURLWithPath: message)))
            #expect(verified.status == 0 && verified.stdout.contains("Good \"file\" signature for \(principal)"), "\(verified.stdout) \(verified.stderr)")
            let tampered = try await agent.client("ssh-keygen", ["-Y", "verify", "-f", signers, "-I", principal, "-n", "file", "-s", message + ".sig"],
                                                  stdin: Data("release 9\n".utf8))
            #expect(tampered.status != 0, "the check can fail")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: agent.socket)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: place.file("run/sesame"))[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
    }

    @Test("SPEC D7: ssh-add FILE imports into the vault with --add-access; -d and -D hide keys from the agent; the vault keeps them")
    func addAndRemove() async throws {
        defer { place.remove() }
        let agent = try await startAgent(["--add-access", "none"])
        defer { agent.stop() }
        let file = place.file("id_ed25519")
        _ = try await SesameBinary.run(["-q", "-t", "ed25519", "-N", "", "-C", "me@old-laptop", "-f", file], environment: place.environment,
                                       executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        let added = try await agent.client("ssh-add", [file])
        #expect(added.status == 0, "\(added.stderr)")
        let keys = try await sesame(["key", "ls", "--service", "ssh"])
        #expect(keys.stdout.hasPrefix("ssh\tme@old-laptop\ted25519\tnone\t"), "\(keys.stdout)")
        let expected = try String(contentsOfFile: file + ".pub", encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(try await agent.client("ssh-add", ["-L"]).stdout == expected + "\n")
        #expect(try await agent.client("ssh-add", ["-d", file + ".pub"]).status == 0)
        #expect(try await agent.client("ssh-add", ["-L"]).status == 1, "no identities after -d")
        #expect(try await agent.client("ssh-add", [file]).status == 0, "adding it again shows it again")
        #expect(try await agent.client("ssh-add", ["-D"]).status == 0)
        #expect(try await agent.client("ssh-add", ["-L"]).status == 1)
        #expect(try await sesame(["key", "ls", "--service", "ssh"]).stdout == keys.stdout, "the vault keeps the key")
    }

    @Test("SPEC D7: ssh-add -x locks (no keys listed, nothing signed); -X with the wrong passphrase fails, with the right one unlocks")
    func lockAndUnlock() async throws {
        defer { place.remove() }
        let agent = try await startAgent()
        defer { agent.stop() }
        _ = try await sesame(["key", "create", "deploy", "--service", "ssh", "--algorithm", "ed25519", "--access", "none"])
        func askpass(_ answer: String) throws -> [String: String] {
            let script = place.file("askpass-\(UUID().uuidString)")
            try ExecutableScript.write("#!/bin/sh\necho '\(answer)'\n", to: script, mode: 0o700)
            return ["SSH_ASKPASS": script, "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"]
        }
        #expect(try await agent.client("ssh-add", ["-x"], environment: try askpass("lock words")).status == 0)
        #expect(try await agent.client("ssh-add", ["-L"]).status == 1, "a locked agent lists nothing")
        #expect(try await agent.client("ssh-add", ["-X"], environment: try askpass("wrong words")).status != 0)
        #expect(try await agent.client("ssh-add", ["-L"]).status == 1)
        #expect(try await agent.client("ssh-add", ["-X"], environment: try askpass("lock words")).status == 0)
        #expect(try await agent.client("ssh-add", ["-L"]).status == 0)
    }

    @Test("SPEC D7: another user is refused (SO_PEERCRED) even when the socket's modes would let them in")
    func otherUserRefused() async throws {
        defer { place.remove() }
        let agent = try await startAgent()
        defer { agent.stop() }
        _ = try await sesame(["key", "create", "deploy", "--service", "ssh", "--algorithm", "ed25519", "--access", "none"])
        try #require(getuid() == 0, "the test switches to another user; CI runs as root")
        // Open every door the file system has, so only the agent's own check stands.
        for path in [place.home, place.file("run"), place.file("run/sesame")] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: agent.socket)
        let other = try await SesameBinary.run(["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/ssh-add", "-L"],
                                               environment: agent.clientEnvironment, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        #expect(other.status != 0)
        #expect(!other.stdout.contains("ssh-ed25519"), "\(other.stdout)")
        #expect(try await agent.client("ssh-add", ["-L"]).status == 0, "the owner still is served")
    }

    @Test("SPEC D7: hostile frames: oversized or empty closes the connection, garbage gets failure; the agent keeps serving")
    func hostileInput() async throws {
        defer { place.remove() }
        let agent = try await startAgent()
        defer { agent.stop() }
        #expect(agent.raw([0x00, 0x04, 0x00, 0x01] + [11]) == nil, "a body over 256 KiB is refused unread")
        #expect(agent.raw([0, 0, 0, 0]) == nil, "an empty body closes")
        #expect(agent.raw([0, 0, 0, 3, 13, 0xff, 0xff]) == [0, 0, 0, 1, 5], "a malformed sign request gets failure")
        #expect(agent.raw([0, 0, 0, 1, 200]) == [0, 0, 0, 1, 5], "an unknown message gets failure")
        #expect(agent.raw([0, 0, 0, 1, 11])?.prefix(5) == [0, 0, 0, 5, 12], "identities still answered")
        #expect(agent.process.isRunning)
    }

    @Test("SPEC D7: --print-env starts the agent in the background once and prints SSH_AUTH_SOCK and SSH_AGENT_PID; ssh-add lists through it")
    func printEnv() async throws {
        defer { place.remove() }
        try await place.createVault()
        _ = try await sesame(["key", "create", "deploy", "--service", "ssh", "--algorithm", "ed25519", "--access", "none"])
        let socket = place.file("bg/ssh-agent.sock")
        let started = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: place.environment)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout.hasPrefix("SSH_AUTH_SOCK='\(socket)'; export SSH_AUTH_SOCK;\nSSH_AGENT_PID="), "\(started.stdout)")
        let pid = try #require(Self.agentPid(started.stdout))
        defer { kill(pid, SIGTERM) }
        var environment = place.environment
        environment["SSH_AUTH_SOCK"] = socket
        let listed = try await SesameBinary.run(["-L"], environment: environment, executable: URL(fileURLWithPath: "/usr/bin/ssh-add"))
        #expect(listed.status == 0 && listed.stdout.hasPrefix("ssh-ed25519 "), "\(listed.stderr)")
    }

    @Test("SPEC D7: shells that each eval --print-env, eight at once and then one more, all get the same running agent; --kill stops it and unsets both variables")
    func printEnvInEveryShell() async throws {
        defer { place.remove() }
        try await place.createVault()
        let socket = place.file("bg/ssh-agent.sock")
        let environment = place.environment
        let shells = try await withThrowingTaskGroup(of: SesameBinary.Result.self) { group in
            for _ in 0..<8 {
                group.addTask { try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: environment) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(shells.allSatisfy { $0.status == 0 }, "\(shells.map(\.stderr))")
        let pids = Set(shells.compactMap { Self.agentPid($0.stdout) })
        #expect(pids.count == 1, "\(shells.map(\.stdout))")
        let pid = try #require(pids.first)
        defer { kill(pid, SIGKILL) }
        let later = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: environment)
        #expect(Self.agentPid(later.stdout) == pid, "\(later.stdout)")
        #expect(kill(pid, 0) == 0)

        let stopped = try await SesameBinary.run(["ssh-agent", "--kill", "--socket", socket], environment: environment)
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stdout.hasPrefix("unset SSH_AUTH_SOCK;\nunset SSH_AGENT_PID;\n"), "\(stopped.stdout)")
        #expect(kill(pid, 0) != 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
        let again = try await SesameBinary.run(["ssh-agent", "--kill", "--socket", socket], environment: environment)
        #expect(again.status == 3 && again.stderr.contains("no Sesame agent"), "\(again.stderr)")
    }

    @Test("SPEC D7: after the agent is killed with SIGKILL (its socket file left behind), --print-env starts a new one and never prints the dead pid")
    func printEnvAfterCrash() async throws {
        defer { place.remove() }
        try await place.createVault()
        let socket = place.file("bg/ssh-agent.sock")
        let first = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: place.environment)
        let dead = try #require(Self.agentPid(first.stdout), "\(first.stdout) \(first.stderr)")
        kill(dead, SIGKILL)
        for _ in 0..<600 where kill(dead, 0) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(FileManager.default.fileExists(atPath: socket))
        let second = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: place.environment)
        #expect(second.status == 0, "\(second.stderr)")
        let pid = try #require(Self.agentPid(second.stdout), "\(second.stdout)")
        defer { kill(pid, SIGTERM) }
        #expect(pid != dead)
        var environment = place.environment
        environment["SSH_AUTH_SOCK"] = socket
        let listed = try await SesameBinary.run(["-l"], environment: environment, executable: URL(fileURLWithPath: "/usr/bin/ssh-add"))
        #expect(listed.status == 1 && listed.stdout.contains("no identities"), "\(listed.stdout) \(listed.stderr)")
    }

    /// The pid in `SSH_AGENT_PID=<pid>;` of --print-env's output.
    private static func agentPid(_ output: String) -> pid_t? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("SSH_AGENT_PID=") }) else { return nil }
        return pid_t(line.dropFirst("SSH_AGENT_PID=".count).prefix { $0.isNumber })
    }

    @Test("SPEC D7: under systemd socket activation (systemd-socket-activate) it serves the socket it is given")
    func socketActivation() async throws {
        defer { place.remove() }
        try await place.createVault()
        _ = try await sesame(["key", "create", "deploy", "--service", "ssh", "--algorithm", "p256", "--access", "none"])
        let socket = place.file("activated.sock")
        // Started by a shell that exits at once, so the activator is not a
        // long-lived child of the test process: Foundation then stops reaping
        // the test's other children (seen with sshd -D too).
        let arguments = ["/usr/bin/systemd-socket-activate", "-l", socket] + place.environment.map { "--setenv=\($0.key)=\($0.value)" }
            + [SesameBinary.url.path, "ssh-agent", "--no-interaction"]
        let shell = try await SesameBinary.run(["-c", TerminalSession.quoted(arguments) + " >/dev/null 2>&1 & echo $!"], environment: place.environment,
                                               executable: URL(fileURLWithPath: "/bin/sh"))
        let pid = try #require(Int32(shell.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGTERM) }
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(25)) }
        var environment = place.environment
        environment["SSH_AUTH_SOCK"] = socket
        let listed = try await SesameBinary.run(["-L"], environment: environment, executable: URL(fileURLWithPath: "/usr/bin/ssh-add"))
        #expect(listed.status == 0 && listed.stdout.hasPrefix("ecdsa-sha2-nistp256 "), "\(listed.stdout) \(listed.stderr)")
    }
}
