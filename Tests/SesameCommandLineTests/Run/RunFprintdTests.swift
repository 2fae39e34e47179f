import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame run` with fingerprint-protected items, against the real fprintd
/// on the virtual reader, in a real terminal session.
@Suite(
    "sesame run (fprintd)",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script")
)
struct RunFprintdTests {
    @Test("SPEC D2: items under the same access control share one context, so one scan serves them all")
    func oneScanForSeveralItems() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        try await home.put("first", Data("one".utf8), arguments: ["--access", "biometry-any"])
        try await home.put("second", Data("two".utf8), arguments: ["--access", "biometry-any"])

        let session = try AuthenticateCommandTests.TerminalSession(
            arguments: ["run", "--env", "A=first", "--env", "B=second", "--reason", "Deploy",
                        "--", "/bin/sh", "-c", #"printf %s "$A$B" > "$1""#, "sh", home.file("out")],
            environment: home.environment)
        try await session.waitUntilScanning(harness)
        try await harness.scan("owner")
        let (status, screen) = await session.finish()
        #expect(status == 0, "\(screen)")
        #expect(FileManager.default.contents(atPath: home.file("out")) == Data("onetwo".utf8))
        #expect(screen.components(separatedBy: "Touch the fingerprint reader").count == 2, "one prompt: \(screen)")
    }

    @Test("SPEC A12, D3: inject opens the items of a template that share an access control with one scan, and the prompt names them all")
    func injectOneScan() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        try await home.put("first", Data("one".utf8), arguments: ["--access", "biometry-any"])
        try await home.put("second", Data("two".utf8), arguments: ["--access", "biometry-any"])
        try Data("a={{ sesame://sesame/first }} b={{ sesame://sesame/second }}".utf8).write(to: URL(fileURLWithPath: home.file("t.tpl")))

        let session = try AuthenticateCommandTests.TerminalSession(
            arguments: ["inject", "-i", home.file("t.tpl"), "-o", home.file("out")], environment: home.environment)
        try await session.waitUntilScanning(harness)
        try await harness.scan("owner")
        let (status, screen) = await session.finish()
        #expect(status == 0, "\(screen)")
        #expect(FileManager.default.contents(atPath: home.file("out")) == Data("a=one b=two".utf8))
        #expect(screen.components(separatedBy: "Touch the fingerprint reader").count == 2, "one prompt: \(screen)")
        #expect(screen.contains("first, second"), "the one prompt names both items: \(screen)")
    }

    @Test("SPEC D2: under --no-interaction a fingerprint item exits 10 and the command does not run")
    func notInteractive() async throws {
        let (harness, home) = try await FprintdHarness.startWithVault()
        defer { harness.stop(); home.remove() }
        try await home.put("first", Data("one".utf8), arguments: ["--access", "biometry-any"])
        let result = try await home.sesame(["run", "--no-interaction", "--env", "A=first", "--",
                                            "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(result.status == 10, "\(result.stderr)")
        #expect(!home.exists("ran"))
    }
}
