import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing
#if os(Linux)
import SesameLinux
#endif

/// The reuse window across processes (SPEC A6, ARCHITECTURE "Reuse window
/// across processes"): a real scan in one `sesame authenticate`, then new
/// processes that reuse it or, after `sesame lock`, do not.
@Suite(
    "sesame authenticate --reuse across processes",
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script"),
    .enabled(if: LockAndStatusCommandTests.keyringAvailable, "keyctl is blocked here (container?): there is no window to reuse")
)
struct AuthenticateReuseTests {
    typealias TerminalSession = AuthenticateCommandTests.TerminalSession


    @Test("SPEC A6: a scan in one process opens the window for the next authenticate, put and get (no scan), status shows it, and sesame lock ends it (exit 10)")
    func reuseAcrossProcesses() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let home = NSTemporaryDirectory() + "sesame-reuse-\(UUID().uuidString)"
        defer { KeyringScope.remove(home: home) }
        let environment = ["HOME": home, "PATH": "/usr/bin:/bin", "TERM": "dumb",
                           "DBUS_SYSTEM_BUS_ADDRESS": harness.systemBusAddress, "SESAME_REUSE_SCOPE": KeyringScope.of(home: home)]
        let reuse = ["authenticate", "--policy", "biometrics", "--reuse", "60", "--no-interaction"]

        // Nothing to reuse yet: not interactive, so exit 10 without a prompt.
        #expect(try await SesameBinary.run(reuse, environment: environment).status == 10)

        let session = try TerminalSession(arguments: ["authenticate", "--policy", "biometrics", "--reuse", "60"], environment: environment)
        try await session.waitUntilScanning(harness)
        try await harness.scan("owner")
        let first = await session.finish()
        #expect(first.status == 0, "\(first.screen)")

        let second = try await SesameBinary.run(reuse, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        // With no window asked for, the same match is not used.
        let strict = try await SesameBinary.run(["authenticate", "--policy", "biometrics", "--no-interaction"], environment: environment)
        #expect(strict.status == 10)
        // --json says the same on standard output: the answer, or the error with its code.
        let answered = try await SesameBinary.run(reuse + ["--json"], environment: environment)
        let answer = try #require(JSONSerialization.jsonObject(with: answered.output) as? [String: Any], "\(answered.stdout)")
        #expect(answered.status == 0 && answer["authenticated"] as? Bool == true && answer["policy"] as? String == "biometrics")
        let refused = try await SesameBinary.run(["authenticate", "--policy", "biometrics", "--no-interaction", "--json"], environment: environment)
        let refusal = try #require(JSONSerialization.jsonObject(with: refused.output) as? [String: Any], "\(refused.stdout)")
        #expect(refused.status == 10 && (refusal["error"] as? [String: Any])?["code"] as? Int == 10)

        let status = try await SesameBinary.run(["status", "--json"], environment: environment)
        let report = try #require(JSONSerialization.jsonObject(with: status.output) as? [String: Any])
        let window = try #require(report["reuse"] as? [String: Any])
        #expect(window["open"] as? Bool == true)
        #expect((window["lastMatchSecondsAgo"] as? Int).map { (0...60).contains($0) } == true)
        // The match is in the keyring, not in the attempt file that survives reboots.
        let attempts = try String(contentsOfFile: home + "/.local/state/sesame/attempts.json", encoding: .utf8)
        #expect(!attempts.contains("lastBiometricSuccess\""))

        // The vault commands take the same window: an item that needs the
        // current fingerprints is written and read by new processes, no scan.
        let passcode = home + "/passcode"
        #expect(FileManager.default.createFile(atPath: passcode, contents: Data("correct horse\n".utf8), attributes: [.posixPermissions: 0o600]))
        var vaultEnvironment = environment
        vaultEnvironment["SESAME_VAULT"] = home + "/vaults/test.sqlite"
        let vault = ["--passcode-fd", "3", "--no-interaction"]
        let created = try await SesameBinary.run(["init", "--passcode-only", "--scrypt-log2n", "10"] + vault,
                                                 environment: vaultEnvironment, descriptor3: passcode)
        #expect(created.status == 0, "\(created.stderr)")
        let put = try await SesameBinary.run(["put", "token", "--access", "biometry-current-set", "--reuse", "60"] + vault,
                                             environment: vaultEnvironment, stdin: Data("s3cret".utf8), descriptor3: passcode)
        #expect(put.status == 0, "\(put.stderr)")
        let got = try await SesameBinary.run(["get", "token", "--reuse", "60"] + vault, environment: vaultEnvironment, descriptor3: passcode)
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stdout == "s3cret")

        let lock = try await SesameBinary.run(["lock"], environment: environment)
        #expect(lock.status == 0, "\(lock.stderr)")
        let afterLock = try await SesameBinary.run(reuse, environment: environment)
        #expect(afterLock.status == 10, "\(afterLock.stderr)")
        let locked = try await SesameBinary.run(["get", "token", "--reuse", "60"] + vault, environment: vaultEnvironment, descriptor3: passcode)
        #expect(locked.status == 10, "\(locked.stderr)")
        #expect(locked.output.isEmpty)
        let closed = try await SesameBinary.run(["status", "--json"], environment: environment)
        let closedReport = try #require(JSONSerialization.jsonObject(with: closed.output) as? [String: Any])
        #expect((closedReport["reuse"] as? [String: Any])?["open"] as? Bool == false)
    }
}
