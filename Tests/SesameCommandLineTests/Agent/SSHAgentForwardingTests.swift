#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import Testing

/// `--no-forwarding` (SPEC D8): a key stored with it is neither
/// listed nor used through a forwarded agent (`ssh -A` to an sshd on
/// 127.0.0.1, then `ssh-add -L` and `ssh-keygen -Y sign` on the far side),
/// while another key is, and it still signs locally.
@Suite("sesame ssh-agent: --no-forwarding keys through ssh -A", .serialized, .timeLimit(.minutes(3)))
struct SSHAgentForwardingTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil, stdin: Data? = nil) async throws -> SesameBinary.Result {
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing (openssh-client, openssh-server)")
        return try await SesameBinary.run(arguments, environment: environment ?? place.environment, stdin: stdin, executable: URL(fileURLWithPath: path))
    }

    /// A sign request (13) for the key in the .pub file given, on `$SSH_AUTH_SOCK`; prints the answer's type.
    static let rawSign = """
        import base64, os, socket, struct, sys
        blob = base64.b64decode(open(sys.argv[1]).read().split()[1])
        s = lambda b: struct.pack(">I", len(b)) + b
        body = b"\\x0d" + s(blob) + s(b"data") + struct.pack(">I", 0)
        c = socket.socket(socket.AF_UNIX)
        c.connect(os.environ["SSH_AUTH_SOCK"])
        c.sendall(struct.pack(">I", len(body)) + body)
        n = struct.unpack(">I", c.recv(4, socket.MSG_WAITALL))[0]
        print("raw sign answer", c.recv(n, socket.MSG_WAITALL)[0])
        """

    @Test("D8: through ssh -A the --no-forwarding key is not listed and not used (reason in the agent's log); the other key is; locally both sign")
    func noForwarding() async throws {
        defer { place.remove() }
        try #require(getuid() == 0, "sshd and the login run as root, as in CI")
        try await place.createVault()
        var lines: [String: String] = [:]
        for (name, extra) in [("travels", [String]()), ("stays", ["--no-forwarding"])] {
            let created = try await place.script(["key", "create", name, "--service", "ssh", "--algorithm", "ed25519", "--access", "none", "--label", name] + extra)
            try #require(created.status == 0, "\(created.stderr)")
            lines[name] = created.stdout.trimmingCharacters(in: .newlines)
            try Data(created.stdout.utf8).write(to: URL(fileURLWithPath: place.file("\(name).pub")))
        }
        let listedInVault = try await place.script(["key", "ls", "--service", "ssh"])
        #expect(listedInVault.stdout.split(separator: "\n").contains { $0.hasPrefix("ssh\tstays\ted25519\t") && $0.hasSuffix("\tno-forwarding") }, "\(listedInVault.stdout)")
        #expect(listedInVault.stdout.split(separator: "\n").contains { $0.hasPrefix("ssh\ttravels\t") && !$0.contains("no-forwarding") })
        let log = place.file("agent.log")
        let agent = try await AgentProcess(place: place, socket: place.file("run/agent.sock"), log: log)
        defer { agent.stop() }
        // Locally (no forwarding) the constrained key signs.
        let message = place.file("message")
        try Data("local\n".utf8).write(to: URL(fileURLWithPath: message))
        #expect(try await agent.client("ssh-keygen", ["-Y", "sign", "-f", place.file("stays.pub"), "-n", "file", message]).status == 0)

        let hostKey = place.file("ssh_host_ed25519_key")
        _ = try await run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey])
        try Data(lines["travels"]!.utf8 + [0x0A]).write(to: URL(fileURLWithPath: place.file("authorized_keys")))
        let remote = """
            ssh-add -L; \
            echo travels > \(place.file("m1")); ssh-keygen -Y sign -f \(place.file("travels.pub")) -n file \(place.file("m1")) >/dev/null 2>&1 && echo TRAVELS-SIGNED; \
            echo stays > \(place.file("m2")); ssh-keygen -Y sign -f \(place.file("stays.pub")) -n file \(place.file("m2")) >/dev/null 2>&1 || echo STAYS-REFUSED; \
            \(TestPython.path) \(place.file("sign.py")) \(place.file("stays.pub"))
            """
        // ssh-keygen does not ask for a key the agent does not list; a client that asks anyway gets SSH_AGENT_FAILURE.
        try Data(Self.rawSign.utf8).write(to: URL(fileURLWithPath: place.file("sign.py")))
        let result = try await SSHServer.login(place: place, hostKey: hostKey, authorizedKeys: place.file("authorized_keys"),
                                               extraConfig: ["AllowAgentForwarding yes"], ssh: { port in
            ["-A", "-o", "IdentitiesOnly=yes", "-o", "IdentityFile=\(place.file("travels.pub"))", "-p", "\(port)", "root@127.0.0.1", remote]
        }, environment: agent.clientEnvironment)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let output = result.stdout.split(separator: "\n").map(String.init)
        #expect(output.contains(lines["travels"]!), "the other key is listed through the forwarded agent: \(result.stdout)")
        #expect(!output.contains(lines["stays"]!), "the --no-forwarding key is not: \(result.stdout)")
        #expect(output.contains("TRAVELS-SIGNED") && output.contains("STAYS-REFUSED"), "\(result.stdout) \(result.stderr)")
        #expect(output.contains("raw sign answer 5"), "SSH_AGENT_FAILURE to a sign request for it: \(result.stdout) \(result.stderr)")
        let reasons = try String(contentsOfFile: log, encoding: .utf8)
        #expect(reasons.contains("stays refuses forwarded use"), "\(reasons)")
    }
}
#endif
