#if os(Linux)
import Foundation
import SesameLinuxTesting
import Glibc
import Testing
import SesameSSH

/// `ssh-add -t` and `ssh-add -c` survive the agent (SPEC D8): the
/// constraints are stored with the key in the vault and enforced there, so a
/// restarted agent and `sesame key sign` obey them too. Real OpenSSH clients.
@Suite("sesame ssh-agent: ssh-add -t and -c across an agent restart (SPEC D8)", .serialized, .timeLimit(.minutes(2)))
struct SSHAgentConstraintsTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    /// A new OpenSSH key file and its public key, with `comment`.
    private func keyFile(_ name: String, comment: String) async throws -> (file: String, publicKey: String) {
        let file = place.file(name)
        let made = try await SesameBinary.run(["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", file], environment: place.environment,
                                              executable: URL(fileURLWithPath: "/usr/bin/ssh-keygen"))
        try #require(made.status == 0, "\(made.stderr)")
        return (file, try String(contentsOfFile: file + ".pub", encoding: .utf8).trimmingCharacters(in: .newlines))
    }

    /// Deletes the key files, as a user should once the vault has them:
    /// `ssh-keygen -Y sign` can then only sign through the agent.
    private static func removePrivateKeys(_ files: String...) throws {
        for file in files { try FileManager.default.removeItem(atPath: file) }
    }

    private func signThroughAgent(_ agent: AgentProcess, publicKeyFile: String) async throws -> Int32 {
        let message = place.file("message-\(UUID().uuidString)")
        try Data("release\n".utf8).write(to: URL(fileURLWithPath: message))
        return try await agent.client("ssh-keygen", ["-Y", "sign", "-f", publicKeyFile, "-n", "file", message]).status
    }

    @Test("SPEC D8: ssh-add -t 3, agent restarted: after the lifetime ssh-add -l lists nothing, ssh-keygen -Y sign and sesame key sign are refused, the vault forgets it")
    func lifetimeSurvivesRestart() async throws {
        defer { place.remove() }
        try await place.createVault()
        let short = try await keyFile("id_short", comment: "short@ci"), kept = try await keyFile("id_kept", comment: "kept@ci")
        var agent = try await AgentProcess(place: place, socket: place.file("run1/agent.sock"), arguments: ["--add-access", "none"])
        #expect(try await agent.client("ssh-add", ["-t", "3", short.file]).status == 0)
        #expect(try await agent.client("ssh-add", [kept.file]).status == 0)
        try Self.removePrivateKeys(short.file, kept.file)
        agent.stop()
        agent = try await AgentProcess(place: place, socket: place.file("run2/agent.sock"), arguments: ["--add-access", "none"])
        defer { agent.stop() }
        try await Task.sleep(for: .seconds(4))

        let listed = try await agent.client("ssh-add", ["-L"])
        #expect(listed.stdout == kept.publicKey + "\n", "only the key without a lifetime: \(listed.stdout)")
        #expect(try await signThroughAgent(agent, publicKeyFile: kept.file + ".pub") == 0, "the restarted agent serves stored keys")
        #expect(try await signThroughAgent(agent, publicKeyFile: short.file + ".pub") != 0)
        let direct = try await place.script(["key", "sign", "short@ci", "--service", "ssh"], stdin: Data("x".utf8))
        #expect(direct.status != 0 && direct.stdout.isEmpty, "sesame key sign refuses it too: \(direct.stderr)")
        let keys = try await place.script(["key", "ls", "--service", "ssh"])
        #expect(!keys.stdout.contains("short@ci") && keys.stdout.contains("kept@ci"), "\(keys.stdout)")
    }

    @Test("SPEC D8: ssh-add -c, agent restarted: a signature still needs a confirmation: an agent or sesame key sign that cannot ask refuses; adding it again without -c lifts nothing")
    func confirmationSurvivesRestart() async throws {
        defer { place.remove() }
        try await place.createVault()
        let confirmed = try await keyFile("id_confirm", comment: "confirm@ci"), plain = try await keyFile("id_plain", comment: "plain@ci")
        var agent = try await AgentProcess(place: place, socket: place.file("run1/agent.sock"), arguments: ["--add-access", "none"])
        #expect(try await agent.client("ssh-add", ["-c", confirmed.file]).status == 0)
        #expect(try await agent.client("ssh-add", [plain.file]).status == 0)
        // Adding it again without -c lifts nothing (the socket may only tighten).
        #expect(try await agent.client("ssh-add", [confirmed.file]).status == 0)
        try Self.removePrivateKeys(confirmed.file, plain.file)
        agent.stop()

        agent = try await AgentProcess(place: place, socket: place.file("run2/agent.sock"), arguments: ["--add-access", "none"])
        #expect(try await agent.client("ssh-add", ["-L"]).stdout.contains(confirmed.publicKey), "still served")
        let listed = try await place.script(["key", "ls", "--service", "ssh", "--json"])
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        #expect(documents.map { "\($0["name"] ?? "")=\($0["confirm"] ?? "")" }.sorted() == ["confirm@ci=1", "plain@ci=0"], "\(listed.stdout)")
        #expect(try await signThroughAgent(agent, publicKeyFile: plain.file + ".pub") == 0, "a key without -c signs without asking")
        #expect(try await signThroughAgent(agent, publicKeyFile: confirmed.file + ".pub") != 0, "-c: an agent that cannot ask refuses")
        agent.stop()
        let direct = try await place.script(["key", "sign", "confirm@ci", "--service", "ssh"], stdin: Data("x".utf8))
        #expect(direct.status != 0 && direct.stdout.isEmpty, "sesame key sign cannot ask, so refuses: \(direct.stderr)")
    }

    @Test(
        "SPEC D8: ssh-add -c, agent restarted: the restarted agent asks through SSH_ASKPASS at each signature; no (a wrong login password) refuses, yes signs",
        .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
        .enabled(if: PAMTestService.isPwdfileInstalled, "pam_pwdfile is not installed: apt-get install libpam-pwdfile")
    )
    func confirmationAsksAfterRestart() async throws {
        defer { place.remove() }
        let service = PAMTestService(password: "l0gin pass phrase")
        defer { service.remove() }
        try service.install()
        try await place.createVault()
        let confirmed = try await keyFile("id_confirm", comment: "confirm@ci")
        var agent = try await AgentProcess(place: place, socket: place.file("run1/agent.sock"), arguments: ["--add-access", "none"])
        #expect(try await agent.client("ssh-add", ["-c", confirmed.file]).status == 0)
        try Self.removePrivateKeys(confirmed.file)
        agent.stop()

        // The restarted agent may ask, through an askpass that records each question.
        let asked = place.file("asked")
        for (answer, signs) in [("not my password", false), ("l0gin pass phrase", true)] {
            let askpass = place.file("askpass-\(UUID().uuidString)")
            try ExecutableScript.write("#!/bin/sh\necho asked >> '\(asked)'\nprintf '%s\\n' '\(answer)'\n", to: askpass, mode: 0o700)
            var environment = place.environment
            environment["SSH_ASKPASS"] = askpass
            agent = try await AgentProcess(place: place, socket: place.file("run-\(signs)/agent.sock"),
                                           arguments: ["--add-access", "none", "--pam-service", service.name], interactive: true, environment: environment)
            defer { agent.stop() }
            #expect((try await signThroughAgent(agent, publicKeyFile: confirmed.file + ".pub") == 0) == signs, "\(answer)")
        }
        let questions = (try? String(contentsOfFile: asked, encoding: .utf8)) ?? ""
        #expect(questions.split(separator: "\n").count >= 2, "the owner was asked each time: \(questions)")
    }
}
#endif
