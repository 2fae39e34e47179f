import Foundation
import Testing

/// `scripts/install.sh` (issue 17): the binary, the man page and the
/// completions land under `DESTDIR` + `PREFIX`, and the installed binary runs.
/// The build step is the release build of the README; here the script
/// installs the already built test binary (`SESAME_BINARY`).
@Suite("scripts/install.sh")
struct InstallScriptTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("Installs sesame, sesame.1 and bash/zsh/fish completions under DESTDIR/PREFIX; the installed sesame runs")
    func stagedInstall() async throws {
        let stage = NSTemporaryDirectory() + "sesame-install-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: stage) }
        let script = root.appendingPathComponent("scripts/install.sh")
        let result = try await SesameBinary.run(
            [], environment: ["PATH": "/usr/bin:/bin", "HOME": stage, "DESTDIR": stage, "PREFIX": "/opt/sesame", "SESAME_BINARY": SesameBinary.url.path],
            executable: script)
        #expect(result.status == 0, "\(result.stderr)")
        let prefix = stage + "/opt/sesame"
        let binary = prefix + "/bin/sesame"
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        let manual = try Data(contentsOf: URL(fileURLWithPath: prefix + "/share/man/man1/sesame.1"))
        #expect(manual == (try Data(contentsOf: root.appendingPathComponent("docs/man/sesame.1"))))
        for (file, marker) in [("share/bash-completion/completions/sesame", "complete"), ("share/zsh/site-functions/_sesame", "#compdef sesame"),
                               ("share/fish/vendor_completions.d/sesame.fish", "complete -c 'sesame'")] {
            let text = try String(contentsOfFile: prefix + "/" + file, encoding: .utf8)
            #expect(text.contains(marker), "\(file)")
            #expect(text.contains("passcode"), "\(file) lacks the passcode command")
        }
        let version = try await SesameBinary.run(["--version"], environment: ["PATH": "/usr/bin:/bin"], executable: URL(fileURLWithPath: binary))
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("0."), "\(version.stdout)")
    }

    @Test("A relative PREFIX is refused (exit 2) and nothing is installed")
    func relativePrefix() async throws {
        let stage = NSTemporaryDirectory() + "sesame-install-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: stage) }
        let result = try await SesameBinary.run(
            [], environment: ["PATH": "/usr/bin:/bin", "DESTDIR": stage, "PREFIX": "relative", "SESAME_BINARY": SesameBinary.url.path],
            executable: root.appendingPathComponent("scripts/install.sh"))
        #expect(result.status == 2)
        #expect(result.stderr.contains("absolute"))
        #expect(!FileManager.default.fileExists(atPath: stage))
    }
}
