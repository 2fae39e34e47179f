#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// The client libraries' own test suites, python3-secretstorage's and
/// python3-keyring's SecretService backend's, against `sesame secret-service`
/// on a private session bus with a fresh vault (SPEC D10), and against
/// gnome-keyring-daemon, the reference, the same way. The upstream source
/// comes from `scripts/secret-service-conformance.sh prepare` (CI runs it as
/// root in .ci/run); without it the tests fail, they do not skip.
@Suite("python3-secretstorage's and python3-keyring's own suites pass against sesame secret-service", .serialized)
struct SecretServiceConformanceTests {
    static let gnomeKeyringDaemon = "/usr/bin/gnome-keyring-daemon"

    @Test("SPEC D10: against Sesame: every upstream test that can run passes, the excluded ones are exactly those listed",
          arguments: UpstreamSuite.allCases)
    func againstSesame(_ suite: UpstreamSuite) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: SecretTool.path), "needs libsecret-tools")
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        // Access "none" (the default, spelled out): the suites read back what
        // they store with nobody at the machine; an item behind a finger or
        // the passcode would rightly stay locked (SecretServiceFprintdTests).
        let server = try await bus.startDaemon(
            SesameBinary.url.path, ["secret-service", "--no-interaction", "--default-access", "none"],
            environment: home.environment, log: "sesame.log")
        defer { server.stop() }
        let ready = try await SecretTool.waitForProvider(bus)
        try #require(ready && server.isRunning, "sesame secret-service did not start: \(Self.log(bus, "sesame.log"))")

        let outcome = try await suite.run(on: bus)
        Self.judge(outcome, suite, log: Self.log(bus, "sesame.log"))
        #expect(server.isRunning, "sesame secret-service exited during the suite: \(Self.log(bus, "sesame.log"))")
    }

    @Test("SPEC D10: against gnome-keyring (the reference): the same tests pass, the same ones are excluded",
          arguments: UpstreamSuite.allCases)
    func againstGnomeKeyring(_ suite: UpstreamSuite) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gnomeKeyringDaemon), "needs gnome-keyring")
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let home = "\(bus.directory)/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        // --unlock reads the login keyring's password on stdin, so the default
        // collection exists and is open, as in a desktop session.
        let keyring = try await bus.startDaemon(
            "/bin/sh",
            ["-c", "printf %s \"$SESAME_TEST_INPUT\" | exec \(Self.gnomeKeyringDaemon) --foreground --components=secrets --unlock --control-directory=\(bus.directory)/control"],
            environment: ["HOME": home, "XDG_DATA_HOME": "\(home)/data", "XDG_RUNTIME_DIR": bus.directory, "SESAME_TEST_INPUT": "login password"],
            log: "gnome-keyring.log")
        defer { keyring.stop() }
        var owned = false
        for _ in 0..<1500 where !owned {
            owned = try await bus.run("/usr/bin/busctl", ["--address=\(bus.address)", "status", "org.freedesktop.secrets"]).status == 0
            if !owned { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(owned, "gnome-keyring-daemon did not take org.freedesktop.secrets: \(Self.log(bus, "gnome-keyring.log"))")

        let outcome = try await suite.run(on: bus)
        Self.judge(outcome, suite, log: Self.log(bus, "gnome-keyring.log"))
    }

    /// Every test ran is accounted for; none failed; the skipped ones are
    /// exactly the suite's exclusions; at least the known tests passed.
    static func judge(_ outcome: UpstreamSuiteOutcome, _ suite: UpstreamSuite, log: String) {
        let report = "\(outcome.output)\n--- provider's log:\n\(log)"
        #expect(outcome.status == 0, "\(suite.rawValue) failed:\n\(report)")
        #expect(outcome.failed.isEmpty, "\(outcome.failed)\n\(report)")
        #expect(Set(outcome.skipped) == Set(suite.excluded.keys), "skipped: \(outcome.skipped)\n\(report)")
        #expect(outcome.passed.count >= suite.minimumPassed, "passed: \(outcome.passed)\n\(report)")
        #expect(outcome.ran == outcome.passed.count + outcome.skipped.count + outcome.failed.count,
                "the runner counted \(outcome.ran.map(String.init) ?? "nothing"):\n\(report)")
    }

    static func log(_ bus: PrivateSessionBus, _ name: String) -> String {
        (try? String(contentsOfFile: "\(bus.directory)/\(name)", encoding: .utf8)) ?? ""
    }
}
#endif
