import Foundation
import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame feature` and `run --feature` against the real fprintd on the
/// virtual reader; prompts in a real terminal session where a scan is needed.
@Suite(
    "sesame feature (fprintd)",
    .serialized,
    .timeLimit(.minutes(2)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct FeatureFprintdTests {
    typealias TerminalSession = AuthenticateCommandTests.TerminalSession

    private func session(_ arguments: [String], _ home: VaultHome) throws -> TerminalSession {
        try TerminalSession(arguments: arguments, environment: home.environment)
    }

    @Test("SPEC B3, B2: enable needs no scan; list and list --json show each protected feature with its policy")
    func enableAndList() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        let deploy = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        #expect(deploy.status == 0, "\(deploy.stderr)")
        let chat = try await home.sesame(["feature", "enable", "chat", "--policy", "device-owner", "--no-interaction"])
        #expect(chat.status == 0, "\(chat.stderr)")
        let again = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        #expect(again.status == 0, "enabling again is a no-op: \(again.stderr)")

        let listed = try await home.sesame(["feature", "list", "--no-interaction"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "chat\tdevice-owner\ndeploy\tbiometrics\n")
        let json = try await home.sesame(["feature", "list", "--json", "--no-interaction"])
        let entries = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: String]])
        #expect(entries == [["name": "chat", "policy": "device-owner"], ["name": "deploy", "policy": "biometrics"]])

        // Weakening deploy's policy needs deploy's check: a prompt, refused here.
        let weaken = try await home.sesame(["feature", "enable", "deploy", "--policy", "device-owner", "--no-interaction"])
        #expect(weaken.status == 10)
        let still = try await home.sesame(["feature", "list", "--no-interaction"])
        #expect(still.stdout.contains("deploy\tbiometrics"))
    }

    @Test("SPEC B5: under --no-interaction a protected feature's check and run --feature exit 10, and the command does not run")
    func notInteractive() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        let enabled = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        try #require(enabled.status == 0, "\(enabled.stderr)")

        let checked = try await home.sesame(["feature", "check", "deploy", "--no-interaction"])
        #expect(checked.status == 10)
        #expect(checked.stderr.contains("--no-interaction"))
        let ran = try await home.sesame(["run", "--no-interaction", "--feature", "deploy", "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(ran.status == 10)
        #expect(!home.exists("ran"))
        let disabled = try await home.sesame(["feature", "disable", "deploy", "--no-interaction"])
        #expect(disabled.status == 10)

        let other = try await home.sesame(["run", "--no-interaction", "--feature", "other", "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("other")])
        #expect(other.status == 0, "an unprotected feature runs: \(other.stderr)")
        #expect(home.exists("other"))
    }

    @Test("SPEC B4, B5: with the reader gone, disable exits 7 with the reason and the feature stays protected; a biometrics-only check fails closed")
    func readerGone() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        let enabled = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        try #require(enabled.status == 0, "\(enabled.stderr)")
        harness.stopFprintd()

        let disabled = try await home.sesame(["feature", "disable", "deploy"])
        #expect(disabled.status == 7)
        #expect(disabled.stderr.contains("Biometric protection is not available"), "\(disabled.stderr)")
        let listed = try await home.sesame(["feature", "list", "--no-interaction"])
        #expect(listed.stdout == "deploy\tbiometrics\n")

        let checked = try await home.sesame(["feature", "check", "deploy"])
        #expect(checked.status == 7, "\(checked.stderr)")
        let ran = try await home.sesame(["run", "--feature", "deploy", "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(ran.status == 7)
        #expect(!home.exists("ran"))
    }

    @Test("SPEC B4: disable after the owner's fingerprint switches protection off; check then passes without a prompt")
    func disableWithScan() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        let enabled = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        try #require(enabled.status == 0, "\(enabled.stderr)")

        let session = try session(["feature", "disable", "deploy", "--reason", "Stop protecting deploy"], home)
        try await session.waitUntilScanning(harness)
        try await harness.scan("owner")
        let (status, screen) = await session.finish()
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("Stop protecting deploy"))

        let listed = try await home.sesame(["feature", "list", "--no-interaction"])
        #expect(listed.output.isEmpty)
        let checked = try await home.sesame(["feature", "check", "deploy", "--no-interaction"])
        #expect(checked.status == 0)
    }

    @Test("SPEC B5: run --feature runs the command after the owner's fingerprint, with the item in its environment")
    func runAfterScan() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        try await home.put("api-token", Data("s3cret".utf8))
        let enabled = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        try #require(enabled.status == 0, "\(enabled.stderr)")

        let session = try session(["run", "--feature", "deploy", "--env", "TOKEN=api-token", "--",
                                   "/bin/sh", "-c", #"printf %s "$TOKEN" > "$1"; exit 3"#, "sh", home.file("out")], home)
        try await session.waitUntilScanning(harness)
        try await harness.scan("owner")
        let (status, screen) = await session.finish()
        #expect(status == 3, "the command's own exit code: \(screen)")
        #expect(FileManager.default.contents(atPath: home.file("out")) == Data("s3cret".utf8))
        #expect(!screen.contains("s3cret"))
    }

    @Test("SPEC C2, C3: after an enrolment change the match alone is not trusted: the vault passcode is asked, then the new enrolment is recorded")
    func enrolmentChange() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        let enabled = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        try #require(enabled.status == 0, "\(enabled.stderr)")
        // Someone enrols a finger of their own. (The virtual reader only
        // verifies the first finger, so the owner's scan is the match below;
        // what matters is that the enrolment is no longer the recorded one.)
        try await harness.enrol(finger: "left-index-finger", scanID: "someone-else")

        let refused = try session(["feature", "check", "deploy"], home)
        try await refused.waitUntilScanning(harness)
        try await harness.scan("owner")
        try await refused.waitForScreen("vault passcode")
        try await refused.typeSecret("wrong passcode")
        let failed = await refused.finish()
        #expect(failed.status == 4, "\(failed.screen)")

        let accepted = try session(["feature", "check", "deploy"], home)
        try await accepted.waitUntilScanning(harness)
        try await harness.scan("owner")
        try await accepted.waitForScreen("vault passcode")
        try await accepted.typeSecret(VaultHome.passcode)
        let passed = await accepted.finish()
        #expect(passed.status == 0, "\(passed.screen)")
        #expect(!passed.screen.contains(VaultHome.passcode), "the passcode is not echoed")

        let recorded = try session(["feature", "check", "deploy"], home)
        try await recorded.waitUntilScanning(harness)
        try await harness.scan("owner")
        let again = await recorded.finish()
        #expect(again.status == 0, "\(again.screen)")
        #expect(!again.screen.contains("vault passcode"), "C3: the new enrolment was recorded")
    }
}
