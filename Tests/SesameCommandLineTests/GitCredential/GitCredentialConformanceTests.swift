import Foundation
import Testing
import SesameSecretsInUse

/// git's own conformance suite for credential helpers,
/// `t/t0303-credential-external.sh`, against `git-credential-sesame`, from the
/// source of the installed git that `scripts/git-credential-conformance.sh
/// prepare` sets up (CI does, as root).
@Suite("sesame git-credential passes git's t0303-credential-external.sh")
struct GitCredentialConformanceTests {
    /// The tests of git 2.39's `helper_test`; newer gits add more.
    static let minimumTests = 12

    @Test("every test of t0303 is ok")
    func t0303() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/git-credential-conformance.sh")
        let bin = SesameBinary.url.deletingLastPathComponent().path
        var environment = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path, "TERM": "dumb"]
        environment["SESAME_GIT_SOURCE"] = ProcessInfo.processInfo.environment["SESAME_GIT_SOURCE"]
        let result = try await SesameBinary.run(["run", bin], environment: environment, executable: script)
        if result.status == 3 {
            throw EnvironmentError("""
                git's source tree for t0303 is not prepared: run `sudo scripts/git-credential-conformance.sh prepare` \
                (CI does in .ci/run): \(result.stderr)
                """)
        }
        let lines = result.stdout.split(separator: "\n")
        let passed = lines.filter { $0.hasPrefix("ok ") }
        let failed = lines.filter { $0.hasPrefix("not ok") }
        #expect(result.status == 0, "t0303 failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(failed.isEmpty, "\(failed)")
        #expect(passed.count >= Self.minimumTests, "\(result.stdout)")
        // `# skip` marks a test the harness did not run: none may be.
        #expect(!passed.contains { $0.contains("# skip") }, "\(passed)")
        #expect(lines.contains { $0.hasPrefix("# passed all \(passed.count) test(s)") }, "\(result.stdout)")
    }
}
