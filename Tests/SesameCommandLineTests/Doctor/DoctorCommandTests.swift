#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame doctor` (SPEC G): one line per check, a fix for each failing one,
/// and exit 0 only when every role that was set up works.
@Suite("sesame doctor", .serialized, .timeLimit(.minutes(2)))
struct DoctorCommandTests {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    @Test("SPEC G: with nothing set up it exits 0 and says so for each role; a missing vault is a warning with its fix")
    func nothingSetUp() async throws {
        defer { place.remove() }
        let result = try await place.sesame(["doctor", "--json"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let report = try JSONDecoder().decode(SetupCommandTests.Report.self, from: Data(result.stdout.utf8))
        #expect(report.ok)
        for role in ["secret-service", "ssh-agent", "git"] {
            #expect(report.checks.first { $0.check == role }?.status == "notSetUp", "\(role): \(result.stdout)")
        }
        let vault = try #require(report.checks.first { $0.check == "vault" })
        #expect(vault.status == "warning" && vault.fix == "sesame init", "\(result.stdout)")
        let text = try await place.sesame(["doctor"])
        #expect(text.stdout.contains("fix: sesame init"), "\(text.stdout)")
    }

    @Test("SPEC G: git's helper set up but not where git looks fails the run (exit 1) with the fix; on PATH again it passes")
    func helperOffPath() async throws {
        defer { place.remove() }
        try await place.createVault()
        #expect(try await place.sesame(["setup", "git"]).status == 0)
        _ = try await SesameBinary.run(["config", "--global", "credential.helper", "sesame"], environment: place.environment,
                                       executable: URL(fileURLWithPath: "/usr/bin/git"))
        // PATH holds git alone: neither `git-credential-sesame` nor git's exec-path has it.
        let only = place.file("git-only")
        try FileManager.default.createDirectory(atPath: only, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: only + "/git", withDestinationPath: "/usr/bin/git")
        var environment = place.environment
        environment["PATH"] = only
        let broken = try await SesameBinary.run(["doctor", "--json"], environment: environment)
        #expect(broken.status == 1, "\(broken.stdout)")
        let check = try #require(try SetupCommandTests.check("git", broken.stdout))
        #expect(check.status == "failed" && check.fix?.contains("PATH") == true, "\(broken.stdout)")

        let binaries = SesameBinary.url.deletingLastPathComponent().path
        environment["PATH"] = only + ":" + binaries
        let fixed = try await SesameBinary.run(["doctor", "--json"], environment: environment)
        #expect(try SetupCommandTests.check("git", fixed.stdout)?.status == "ok", "\(fixed.stdout)")
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test("SPEC D7, G: SSH_AUTH_SOCK on OpenSSH's agent is not Sesame's: failed once ssh-agent is set up, with the --print-env fix; Sesame's agent passes")
    func agentSocket() async throws {
        defer { place.remove() }
        try await place.createVault()
        #expect(try await place.sesame(["setup", "ssh-agent"]).status == 0)
        let openssh = place.file("openssh.sock")
        // OpenSSH's agent in the foreground (-D), kept by the harness: a daemonized one outlives the
        // process that started it, which Foundation's Process then never reaps.
        let harness = try await PrivateSessionBus.start()
        defer { harness.stop() }
        let opensshAgent = try await harness.startDaemon("/usr/bin/ssh-agent", ["-D", "-a", openssh], log: "ssh-agent.log")
        defer { opensshAgent.stop() }
        for _ in 0..<1500 where !FileManager.default.fileExists(atPath: openssh) { try await Task.sleep(for: .milliseconds(20)) }
        var environment = place.environment
        environment["SSH_AUTH_SOCK"] = openssh
        let foreign = try await SesameBinary.run(["doctor", "--json"], environment: environment)
        let check = try #require(try SetupCommandTests.check("ssh-agent", foreign.stdout))
        #expect(check.status == "failed" && check.fix?.contains("--print-env") == true, "\(foreign.stdout)")
        #expect(foreign.status == 1)

        let socket = place.file("run/ssh-agent.sock")
        let ours = try await SesameBinary.run(["ssh-agent", "--print-env", "--socket", socket], environment: place.environment)
        let pid = try #require(ours.stdout.split(separator: "SSH_AGENT_PID=").last.flatMap { Int32($0.prefix { $0.isNumber }) }, "\(ours.stderr)")
        defer { kill(pid, SIGTERM) }
        environment["SSH_AUTH_SOCK"] = socket
        let sesame = try await SesameBinary.run(["doctor", "--json"], environment: environment)
        let passing = try #require(try SetupCommandTests.check("ssh-agent", sesame.stdout))
        #expect(passing.status == "ok" && passing.facts?["pid"] == String(pid), "\(sesame.stdout)")
        kill(pid, SIGKILL)
        for _ in 0..<600 where kill(pid, 0) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        let killed = try await SesameBinary.run(["doctor", "--json"], environment: environment)
        #expect(try SetupCommandTests.check("ssh-agent", killed.stdout)?.status == "failed", "\(killed.stdout)")
    }
}
#endif
