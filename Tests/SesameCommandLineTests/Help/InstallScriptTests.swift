import Foundation
import Testing

/// `scripts/install.sh`: the binary, its helper link, the man pages, the
/// completions, the units and the D-Bus file land under `DESTDIR` +
/// `PREFIX`, written for that prefix; the installed binary runs, and
/// `--uninstall` takes every file away again.
/// The build step is the release build of the README; here the script
/// installs the already built test binary (`SESAME_BINARY`).
@Suite("scripts/install.sh")
struct InstallScriptTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("Installs sesame, git-credential-sesame (a link that runs the helper), both man pages, bash/zsh/fish completions, the units and the D-Bus file written for PREFIX; --uninstall removes every file")
    func stagedInstall() async throws {
        let stage = NSTemporaryDirectory() + "sesame-install-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: stage) }
        let script = root.appendingPathComponent("scripts/install.sh")
        let environment = ["PATH": "/usr/bin:/bin", "HOME": stage, "DESTDIR": stage, "PREFIX": "/opt/sesame", "SESAME_BINARY": SesameBinary.url.path]
        let result = try await SesameBinary.run([], environment: environment, executable: script)
        #expect(result.status == 0, "\(result.stderr)")
        let prefix = stage + "/opt/sesame"
        let binary = prefix + "/bin/sesame"
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        let manual = try Data(contentsOf: URL(fileURLWithPath: prefix + "/share/man/man1/sesame.1"))
        #expect(manual == (try Data(contentsOf: root.appendingPathComponent("docs/man/sesame.1"))))
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/man/man1/git-credential-sesame.1"))
        for (file, marker) in [("share/bash-completion/completions/sesame", "complete"), ("share/zsh/site-functions/_sesame", "#compdef sesame"),
                               ("share/fish/vendor_completions.d/sesame.fish", "complete -c 'sesame'")] {
            let text = try String(contentsOfFile: prefix + "/" + file, encoding: .utf8)
            #expect(text.contains(marker), "\(file)")
            #expect(text.contains("passcode"), "\(file) lacks the passcode command")
        }
        // The paths inside are this PREFIX's, not /usr/local's.
        for file in ["lib/systemd/user/sesame-secret-service.service", "lib/systemd/user/sesame-ssh-agent.service"] {
            let text = try String(contentsOfFile: prefix + "/" + file, encoding: .utf8)
            #expect(text.contains("ExecStart=/opt/sesame/bin/sesame "), "\(file): \(text)")
        }
        #expect(FileManager.default.fileExists(atPath: prefix + "/lib/systemd/user/sesame-ssh-agent.socket"))
        let activation = try String(contentsOfFile: prefix + "/share/sesame/dbus-1/services/org.freedesktop.secrets.service", encoding: .utf8)
        #expect(activation.contains("Exec=/opt/sesame/bin/sesame secret-service"), "\(activation)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/bin/git-credential-sesame") == "sesame")

        let version = try await SesameBinary.run(["--version"], environment: ["PATH": "/usr/bin:/bin"], executable: URL(fileURLWithPath: binary))
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("0.") && version.stdout.contains("(vault format "), "\(version.stdout)")
        // Run by the link's name it is `sesame git-credential`: what git runs for credential.helper=sesame.
        let helper = try await SesameBinary.run(["--help"], environment: ["PATH": "/usr/bin:/bin", "HOME": stage],
                                                executable: URL(fileURLWithPath: prefix + "/bin/git-credential-sesame"))
        #expect(helper.stdout.contains("credential.helper"), "\(helper.stdout) \(helper.stderr)")

        let removed = try await SesameBinary.run(["--uninstall"], environment: environment, executable: script)
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = FileManager.default.enumerator(atPath: prefix)?.compactMap { $0 as? String }.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
                || (try? FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/" + name)) != nil
        } ?? []
        #expect(left.isEmpty, "left after --uninstall: \(left)")
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
