#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import Testing

/// `--allow-sha1` (SPEC D8): an RSA key imported with it signs
/// `ssh-rsa` (SHA-1) when a client asks, so `ssh-add -T` (OpenSSH 9.2 tests
/// an RSA key with `ssh-rsa`) answers as OpenSSH's own agent answers and an
/// `ssh` login to an sshd that accepts only `ssh-rsa` works; an RSA key
/// without it keeps refusing, with the reason in the agent's log. The mark
/// is the vault's, so `sesame key sign` obeys it too, and `ssh-add` of the
/// same key neither sets nor clears it.
@Suite("sesame ssh-agent: ssh-rsa (SHA-1) only for RSA keys imported with --allow-sha1", .serialized, .timeLimit(.minutes(5)))
struct SSHAgentAllowSHA1Tests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil, stdin: Data? = nil) async throws -> SesameBinary.Result {
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing (openssh-client, openssh-server, openssl)")
        return try await SesameBinary.run(arguments, environment: environment ?? place.environment, stdin: stdin, executable: URL(fileURLWithPath: path))
    }

    /// Makes RSA 2048 keys `old` (imported with --allow-sha1) and `new`
    /// (without) with ssh-keygen, imports them with `sesame key import`, and
    /// writes each public key to NAME.pub; the private files stay as id_NAME.
    private func importKeys() async throws -> [String: String] {
        var lines: [String: String] = [:]
        for (name, extra) in [("old", ["--allow-sha1"]), ("new", [String]())] {
            let file = place.file("id_\(name)")
            let made = try await run("/usr/bin/ssh-keygen", ["-q", "-t", "rsa", "-b", "2048", "-N", "", "-C", "\(name)@laptop", "-f", file])
            try #require(made.status == 0, "\(made.stderr)")
            let imported = try await place.script(["key", "import", name, "--service", "ssh", "--access", "none"] + extra,
                                                  stdin: try Data(contentsOf: URL(fileURLWithPath: file)))
            try #require(imported.status == 0, "\(imported.stderr)")
            lines[name] = imported.stdout.trimmingCharacters(in: .newlines)
            try Data(imported.stdout.utf8).write(to: URL(fileURLWithPath: place.file("\(name).pub")))
        }
        return lines
    }

    /// Whether `sesame key ls --json` says the key is marked.
    private func marked() async throws -> [String: Bool] {
        let listed = try await place.script(["key", "ls", "--service", "ssh", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]], "\(listed.stdout) \(listed.stderr)")
        return Dictionary(uniqueKeysWithValues: entries.compactMap { entry in
            (entry["name"] as? String).map { ($0, entry["allowSHA1"] as? Bool ?? false) }
        })
    }

    @Test("SPEC D8: ssh-add -T of an RSA key imported with --allow-sha1 succeeds, as with OpenSSH's agent; without it, it fails (reason naming --allow-sha1 in the log); ssh-add of the same files neither sets nor clears the mark")
    func sshAddTest() async throws {
        defer { place.remove() }
        try await place.createVault()
        _ = try await importKeys()
        let text = try await place.script(["key", "ls", "--service", "ssh"])
        let rows = text.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("ssh\told\trsa-2048\t") && $0.hasSuffix("\tallow-sha1") }, "\(text.stdout)")
        #expect(rows.contains { $0.hasPrefix("ssh\tnew\trsa-2048\t") && !$0.contains("allow-sha1") }, "\(text.stdout)")
        #expect(try await marked() == ["old": true, "new": false])

        // OpenSSH's agent with the same key files, in one shell (see SSHAgentKeyTypesTests.sameAnswersAsOpenSSH).
        let socket = place.file("openssh-agent.sock"), reference = place.file("reference.T")
        var script = "/usr/bin/ssh-agent -D -a '\(socket)' >/dev/null 2>&1 &\nagent=$!\nexport SSH_AUTH_SOCK='\(socket)'\n"
            + "for i in $(seq 100); do [ -S \"$SSH_AUTH_SOCK\" ] && break; sleep 0.05; done\n"
        for name in ["old", "new"] {
            script += "/usr/bin/ssh-add '\(place.file("id_\(name)"))' 2>/dev/null\n"
            script += "/usr/bin/ssh-add -T '\(place.file("\(name).pub"))' 2>/dev/null; echo \(name) $? >> '\(reference)'\n"
        }
        script += "kill -9 $agent\nwait $agent\nexit 0\n"
        #expect(try await run("/bin/sh", ["-c", script]).status == 0)
        let theirs = try String(contentsOfFile: reference, encoding: .utf8)
        #expect(theirs.contains("old 0") && theirs.contains("new 0"), "OpenSSH's agent passes ssh-add -T for both: \(theirs)")

        let log = place.file("agent.log")
        let agent = try await AgentProcess(place: place, socket: place.file("run/agent.sock"), log: log)
        defer { agent.stop() }
        func test() async throws -> (old: SesameBinary.Result, new: SesameBinary.Result) {
            (try await agent.client("ssh-add", ["-T", place.file("old.pub")]), try await agent.client("ssh-add", ["-T", place.file("new.pub")]))
        }
        var mine = try await test()
        #expect(mine.old.status == 0, "the marked key answers ssh-add -T as OpenSSH's agent does: \(mine.old.stderr)")
        #expect(mine.new.status != 0 && mine.new.stderr.contains("agent refused operation"), "\(mine.new.stderr)")
        let reasons = try String(contentsOfFile: log, encoding: .utf8)
        #expect(reasons.contains("ssh-rsa (SHA-1) signature was asked of new@laptop, which is not marked for SHA-1") && reasons.contains("--allow-sha1"),
                "\(reasons)")

        // ssh-add of the same files: the agent adds a lifetime to the stored keys; the mark stays as it was.
        for name in ["old", "new"] {
            let added = try await agent.client("ssh-add", ["-t", "3600", place.file("id_\(name)")])
            #expect(added.status == 0, "\(added.stderr)")
        }
        #expect(try await marked() == ["old": true, "new": false])
        mine = try await test()
        #expect(mine.old.status == 0 && mine.new.status != 0, "\(mine.old.stderr) \(mine.new.stderr)")
    }

    @Test("SPEC D8: ssh logs in with ssh-rsa (client and sshd limited to it) with the --allow-sha1 key, and not with the other RSA key")
    func sshRSALogin() async throws {
        defer { place.remove() }
        try #require(getuid() == 0, "sshd and the login run as root, as in CI")
        try await place.createVault()
        let lines = try await importKeys()
        let agent = try await AgentProcess(place: place, socket: place.file("run/agent.sock"))
        defer { agent.stop() }
        let hostKey = place.file("ssh_host_ed25519_key")
        _ = try await run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey])
        try Data(lines.values.joined(separator: "\n").utf8 + [0x0A]).write(to: URL(fileURLWithPath: place.file("authorized_keys")))
        for name in ["old", "new"] {
            let login = try await SSHServer.login(place: place, hostKey: hostKey, authorizedKeys: place.file("authorized_keys"),
                                                  extraConfig: ["PubkeyAcceptedAlgorithms ssh-rsa"], ssh: { port in
                ["-o", "IdentitiesOnly=yes", "-o", "IdentityFile=\(place.file("\(name).pub"))", "-o", "PubkeyAcceptedAlgorithms=ssh-rsa",
                 "-p", "\(port)", "root@127.0.0.1", "echo logged-in"]
            }, environment: agent.clientEnvironment)
            if name == "old" {
                #expect(login.status == 0 && login.stdout == "logged-in\n", "\(login.stdout) \(login.stderr)")
            } else {
                #expect(login.status != 0 && !login.stdout.contains("logged-in"), "\(login.stdout) \(login.stderr)")
            }
        }
    }

    /// Through `$SSH_AUTH_SOCK`, for each key: an `ssh-rsa` signature (no
    /// algorithm: flags 0) checked with paramiko's own verifier, or the refusal.
    static let paramikoScript = """
        import base64, sys, paramiko
        from paramiko.message import Message
        data = b"signed with ssh-rsa for paramiko"
        for key in paramiko.Agent().get_keys():
            blob = key.asbytes()
            verifier = paramiko.RSAKey(data=blob)
            name = base64.b64encode(blob).decode()
            try:
                signature = key.sign_ssh_data(data)
            except paramiko.SSHException:
                print("refused", name)
                continue
            kind = Message(signature).get_text()
            good = verifier.verify_ssh_sig(data, Message(signature)) and not verifier.verify_ssh_sig(data + b"!", Message(signature))
            print("signed", kind, "verified" if good else "NOT-VERIFIED", name)
        """

    @Test("SPEC D8: python3-paramiko's ssh-rsa signature request (no algorithm) is signed and verifies for the --allow-sha1 key, and refused for the other")
    func paramikoSHA1() async throws {
        defer { place.remove() }
        try await place.createVault()
        let lines = try await importKeys()
        let agent = try await AgentProcess(place: place, socket: place.file("run/agent.sock"))
        defer { agent.stop() }
        let result = try await run(TestPython.path, ["-c", Self.paramikoScript], environment: agent.clientEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        let blob = { (name: String) in lines[name]!.split(separator: " ")[1] }
        let output = Set(result.stdout.split(separator: "\n").map(String.init))
        #expect(output == ["signed ssh-rsa verified \(blob("old"))", "refused \(blob("new"))"], "\(result.stdout) \(result.stderr)")
    }

    @Test("SPEC D8: sesame key sign --rsa-scheme ssh-rsa signs with the marked key (openssl verifies SHA-1) and is refused for the other; --allow-sha1 on a key that is not RSA is refused")
    func keySignAndNonRSA() async throws {
        defer { place.remove() }
        try await place.createVault()
        _ = try await importKeys()
        let message = Data("a message for an old verifier\n".utf8)
        try message.write(to: URL(fileURLWithPath: place.file("message")))
        let signed = try await place.script(["key", "sign", "old", "--service", "ssh", "--rsa-scheme", "ssh-rsa"], stdin: message)
        #expect(signed.status == 0 && signed.output.count == 256, "\(signed.stderr)")
        try signed.output.write(to: URL(fileURLWithPath: place.file("message.sig")))
        let pem = try await place.script(["key", "public", "old", "--service", "ssh", "--format", "pem"])
        try Data(pem.stdout.utf8).write(to: URL(fileURLWithPath: place.file("old.pem")))
        let verify = ["dgst", "-sha1", "-verify", place.file("old.pem"), "-signature", place.file("message.sig"), place.file("message")]
        let verified = try await run("/usr/bin/openssl", verify)
        #expect(verified.status == 0 && verified.stdout.contains("Verified OK"), "\(verified.stdout) \(verified.stderr)")

        let refused = try await place.script(["key", "sign", "new", "--service", "ssh", "--rsa-scheme", "ssh-rsa"], stdin: message)
        #expect(refused.status != 0 && refused.output.isEmpty && refused.stderr.contains("not marked for SHA-1"), "\(refused.stderr)")

        let ed25519 = try await place.script(["key", "create", "ed", "--service", "ssh", "--algorithm", "ed25519", "--access", "none", "--allow-sha1"])
        #expect(ed25519.status != 0 && ed25519.stderr.contains("only an RSA key can be marked for SHA-1"), "\(ed25519.stderr)")
        let created = try await place.script(["key", "create", "rsa", "--service", "ssh", "--algorithm", "rsa-2048", "--access", "none", "--allow-sha1", "--json"])
        #expect(created.status == 0, "\(created.stderr)")
        let document = try JSONSerialization.jsonObject(with: created.output) as? [String: Any]
        #expect(document?["allowSHA1"] as? Bool == true, "\(created.stdout)")
        #expect(try await marked() == ["old": true, "new": false, "rsa": true])
    }
}
#endif
