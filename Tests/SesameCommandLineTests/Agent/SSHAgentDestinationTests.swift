#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import Testing

/// `ssh-add -h` (SPEC D8): two sshd on 127.0.0.1 with different
/// host keys stand for hosts `hosta` and `hostb` (named to ssh-add by a
/// known_hosts file). A key restricted to `hosta` logs in there, not to
/// `hostb`, and not on from `hosta` through its forwarded agent; a key also
/// allowed `hosta>hostb` takes that hop. OpenSSH's own agent, in the same
/// script, is the reference.
@Suite("sesame ssh-agent: ssh-add -h destination constraints, two sshd", .serialized, .timeLimit(.minutes(4)))
struct SSHAgentDestinationTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func run(_ path: String, _ arguments: [String]) async throws -> SesameBinary.Result {
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing (openssh-client, openssh-server)")
        return try await SesameBinary.run(arguments, environment: place.environment, executable: URL(fileURLWithPath: path))
    }

    /// Host keys, client keys `one` (`-h hosta`) and `two` (`-h hosta -h
    /// hosta>hostb`), the known_hosts naming the hosts, authorized_keys.
    private func makeKeys() async throws -> (hostA: String, hostB: String) {
        for name in ["host_a", "host_b"] {
            #expect(try await run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", place.file(name)]).status == 0)
        }
        for name in ["one", "two"] {
            #expect(try await run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "\(name)@ci", "-f", place.file(name)]).status == 0)
        }
        let read = { (name: String) in try String(contentsOfFile: self.place.file(name), encoding: .utf8) }
        try Data(("hosta " + read("host_a.pub") + "hostb " + read("host_b.pub")).utf8).write(to: URL(fileURLWithPath: place.file("known_hosts")))
        try Data((read("one.pub") + read("two.pub")).utf8).write(to: URL(fileURLWithPath: place.file("authorized_keys")))
        try Data(SSHAgentForwardingTests.rawSign.utf8).write(to: URL(fileURLWithPath: place.file("sign.py")))
        return (place.file("host_a"), place.file("host_b"))
    }

    /// The scenario, for the agent on `$SSH_AUTH_SOCK`: add both keys, then
    /// for each log in to A, to B, and through A on to B; a raw sign request
    /// for `one` locally (no session bound) and on A's forwarded agent.
    private func scenario(portA: Int, portB: Int) -> String {
        var lines = [
            "ssh-add -H '\(place.file("known_hosts"))' -h hosta '\(place.file("one"))' && echo ADDED-one",
            "ssh-add -H '\(place.file("known_hosts"))' -h hosta -h 'hosta>hostb' '\(place.file("two"))' && echo ADDED-two",
            "echo LOCAL $(\(TestPython.path) '\(place.file("sign.py"))' '\(place.file("one.pub"))')",
        ]
        for key in ["one", "two"] {
            let only = ["-o", "IdentitiesOnly=yes", "-o", "IdentityFile=\(place.file(key + ".pub"))"]
            let onward = SSHServer.client(only + ["-p", "\(portB)", "root@127.0.0.1", "echo \(key)-HOP-OK"])
                + "; echo FORWARDED $(\(TestPython.path) '\(place.file("sign.py"))' '\(place.file("one.pub"))')"
            lines += [
                SSHServer.client(only + ["-p", "\(portA)", "root@127.0.0.1", "echo \(key)-A-OK"]),
                SSHServer.client(only + ["-p", "\(portB)", "root@127.0.0.1", "echo \(key)-B-OK"]),
                SSHServer.client(only + ["-A", "-p", "\(portA)", "root@127.0.0.1", onward]),
            ]
        }
        return (lines + ["true"]).joined(separator: "\n")
    }

    /// What both agents must show.
    private func expectScenario(_ result: SesameBinary.Result, agent: String) {
        let output = result.stdout.split(separator: "\n").map(String.init)
        let context = "\(agent): \(result.stdout)\n\(result.stderr)"
        #expect(output.contains("ADDED-one") && output.contains("ADDED-two"), "\(context)")
        #expect(output.contains("one-A-OK") && output.contains("two-A-OK"), "each key logs in to hosta: \(context)")
        #expect(!output.contains("one-B-OK") && !output.contains("two-B-OK"), "neither to hostb directly: \(context)")
        #expect(!output.contains("one-HOP-OK"), "-h hosta: not on from hosta: \(context)")
        #expect(output.contains("two-HOP-OK"), "-h 'hosta>hostb': on from hosta to hostb: \(context)")
        #expect(output.contains("LOCAL raw sign answer 5"), "no signature of anything but a login on an unbound connection: \(context)")
        #expect(output.contains("FORWARDED raw sign answer 5"), "nor through a forwarded agent: \(context)")
    }

    @Test("SPEC D8: ssh-add -h hosta logs in to A, is refused for B and for the hop A>B; -h 'hosta>hostb' takes it; stored and shown by key ls; OpenSSH's agent agrees")
    func destinations() async throws {
        defer { place.remove() }
        try #require(getuid() == 0, "sshd and the login run as root, as in CI")
        try await place.createVault()
        let hosts = try await makeKeys()
        let log = place.file("agent.log")
        let agent = try await AgentProcess(place: place, socket: place.file("run/agent.sock"), arguments: ["--add-access", "none"], log: log)
        defer { agent.stop() }
        let sesame = try await SSHServer.withTwoServers(place: place, hostKeys: hosts, authorizedKeys: place.file("authorized_keys"),
                                                        extraConfig: ["AllowAgentForwarding yes"], script: scenario, environment: agent.clientEnvironment)
        expectScenario(sesame, agent: "sesame")
        let reasons = try String(contentsOfFile: log, encoding: .utf8)
        #expect(reasons.contains("one@ci refused: it is restricted to destinations (ssh-add -h) and this connection is bound to no SSH session"), "\(reasons)")
        #expect(reasons.contains("one@ci refused: it is restricted to destinations (ssh-add -h) and signs only SSH logins"), "\(reasons)")

        // Stored with the key (SPEC D8): shown by key ls, text and JSON.
        let listed = try await place.script(["key", "ls", "--service", "ssh"])
        let rows = listed.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("ssh\tone@ci\t") && $0.hasSuffix("\tto=hosta") }, "\(listed.stdout)")
        #expect(rows.contains { $0.hasPrefix("ssh\ttwo@ci\t") && $0.hasSuffix("\tto=hosta,hosta>hostb") }, "\(listed.stdout)")
        let json = try await place.script(["key", "ls", "--service", "ssh", "--json"])
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let two = try #require(keys.first { $0["name"] as? String == "two@ci" }?["destinations"] as? [[String: Any]])
        #expect(two.count == 2)
        let hop = try #require(two.last)
        #expect((hop["from"] as? [String: Any])?["hostname"] as? String == "hosta" && (hop["to"] as? [String: Any])?["hostname"] as? String == "hostb")
        let hostBKey = try #require(((hop["to"] as? [String: Any])?["hostKeys"] as? [[String: Any]])?.first)
        let fingerprint = try await run("/usr/bin/ssh-keygen", ["-l", "-f", place.file("host_b.pub")])
        #expect(fingerprint.stdout.contains(try #require(hostBKey["fingerprint"] as? String)), "\(fingerprint.stdout) \(hostBKey)")

        // Outside the agent there is no bound login: sesame key sign refuses it too.
        let direct = try await place.script(["key", "sign", "one@ci", "--service", "ssh"], stdin: Data("x".utf8))
        #expect(direct.status != 0 && direct.stdout.isEmpty && direct.stderr.contains("restricted to SSH destinations"), "\(direct.stderr)")

        // The reference: OpenSSH's agent in the same scenario.
        let openSSH = place.file("openssh/agent.sock")
        try FileManager.default.createDirectory(atPath: place.file("openssh"), withIntermediateDirectories: true)
        let reference = try await SSHServer.withTwoServers(place: place, hostKeys: hosts, authorizedKeys: place.file("authorized_keys"),
                                                           extraConfig: ["AllowAgentForwarding yes"], script: { portA, portB in
            """
            /usr/bin/ssh-agent -D -a '\(openSSH)' >/dev/null 2>&1 &
            agent=$!
            export SSH_AUTH_SOCK='\(openSSH)'
            until [ -S '\(openSSH)' ]; do sleep 0.05; done
            \(scenario(portA: portA, portB: portB))
            kill $agent
            wait $agent
            true
            """
        }, environment: place.environment)
        expectScenario(reference, agent: "OpenSSH")
    }
    /// Adds a fresh Ed25519 key on `$SSH_AUTH_SOCK` restricted to a host whose
    /// name and user pattern hold control characters; prints the answer's type.
    static let rawAddWithControlCharacters = """
        import os, socket, struct
        from cryptography.hazmat.primitives.asymmetric import ed25519
        from cryptography.hazmat.primitives import serialization as ser
        k = ed25519.Ed25519PrivateKey.generate()
        seed = k.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw, ser.NoEncryption())
        pub = k.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
        s = lambda b: struct.pack(">I", len(b)) + b
        host = s(b"ssh-ed25519") + s(bytes(range(32)))
        hop = lambda user, name, keys: s(user) + s(name) + s(b"") + b"".join(s(x) + b"\\x00" for x in keys)
        dest = s(s(hop(b"", b"", [])) + s(hop(b"u\\x07", b"evil\\x1b[2Jhost", [host])) + s(b""))
        body = b"\\x19" + s(b"ssh-ed25519") + s(pub) + s(seed + pub) + s(b"ctl") + b"\\xff" + s(b"restrict-destination-v00@openssh.com") + s(dest)
        c = socket.socket(socket.AF_UNIX)
        c.connect(os.environ["SSH_AUTH_SOCK"])
        c.sendall(struct.pack(">I", len(body)) + body)
        n = struct.unpack(">I", c.recv(4, socket.MSG_WAITALL))[0]
        print("add answer", c.recv(n, socket.MSG_WAITALL)[0])
        """

    @Test("SPEC D9: key ls shows a destination's host name and user pattern with control characters escaped, in text and JSON")
    func controlCharactersEscaped() async throws {
        defer { place.remove() }
        try await place.createVault()
        let agent = try await AgentProcess(place: place, socket: place.file("run/agent.sock"), arguments: ["--add-access", "none"])
        defer { agent.stop() }
        try Data(Self.rawAddWithControlCharacters.utf8).write(to: URL(fileURLWithPath: place.file("add.py")))
        let added = try await SesameBinary.run([place.file("add.py")], environment: agent.clientEnvironment, executable: URL(fileURLWithPath: TestPython.path))
        #expect(added.stdout == "add answer 6\n", "\(added.stdout) \(added.stderr)")
        let text = try await place.script(["key", "ls", "--service", "ssh"])
        #expect(text.stdout.contains("evil") && text.stdout.contains("\tto=u"), "\(text.stdout)")
        #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("\u{07}"), "\(text.stdout)")
        let json = try await place.script(["key", "ls", "--service", "ssh", "--json"])
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let to = try #require((keys.first?["destinations"] as? [[String: Any]])?.first?["to"] as? [String: Any])
        let hostname = try #require(to["hostname"] as? String), user = try #require(to["user"] as? String)
        #expect(hostname.hasPrefix("evil") && hostname.hasSuffix("[2Jhost") && !hostname.contains("\u{1B}"), "\(hostname)")
        #expect(user.hasPrefix("u") && !user.contains("\u{07}"), "\(user)")
    }
}
#endif
