import Foundation
import Testing

/// `sesame feature` on a machine without a fingerprint reader (no system
/// bus at all): what works, and what fails closed and says why.
@Suite("sesame feature (no reader)")
struct FeatureCommandTests {
    @Test("SPEC B3: enable without a reader exits 7 with the reason, and nothing becomes protected")
    func enableWithoutReader() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let enabled = try await home.sesame(["feature", "enable", "deploy", "--no-interaction"])
        #expect(enabled.status == 7)
        #expect(enabled.stderr.contains("Biometric protection is not available"), "\(enabled.stderr)")

        let listed = try await home.sesame(["feature", "list", "--no-interaction"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.output.isEmpty)
        let json = try await home.sesame(["feature", "list", "--json", "--no-interaction"])
        #expect(json.status == 0)
        #expect((try JSONSerialization.jsonObject(with: json.output) as? [Any])?.isEmpty == true, "\(json.stdout)")
    }

    @Test("SPEC B5: an unprotected feature passes at once: check exits 0 and run --feature runs the command, under --no-interaction")
    func unprotected() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let checked = try await home.sesame(["feature", "check", "deploy", "--no-interaction"])
        #expect(checked.status == 0, "\(checked.stderr)")
        let ran = try await home.sesame(["run", "--no-interaction", "--feature", "deploy", "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(home.exists("ran"))
    }

    @Test("SPEC B4: disable fails when biometrics is unavailable, even for an unprotected feature")
    func disableWithoutReader() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let disabled = try await home.sesame(["feature", "disable", "deploy", "--no-interaction"])
        #expect(disabled.status == 7)
        #expect(disabled.stderr.contains("not available"))
    }

    @Test("SPEC B5, B6: The flags live in the vault: without one, check and run --feature fail closed (exit 3, no vault) and the command does not run")
    func noVault() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let checked = try await home.sesame(["feature", "check", "deploy", "--no-interaction"])
        #expect(checked.status == 3)
        #expect(checked.stderr.contains("sesame init"))
        let ran = try await home.sesame(["run", "--no-interaction", "--feature", "deploy", "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(ran.status == 3)
        #expect(!home.exists("ran"))
    }

    @Test("A vault others can read is refused (exit 9) by feature and run --feature alike, and the command does not run")
    func vaultOpenToOthers() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: home.vault)
        let listed = try await home.sesame(["feature", "list", "--no-interaction"])
        #expect(listed.status == 9, "\(listed.stderr)")
        let ran = try await home.sesame(["run", "--no-interaction", "--feature", "deploy", "--", "/bin/sh", "-c", #"touch "$1""#, "sh", home.file("ran")])
        #expect(ran.status == 9)
        #expect(!home.exists("ran"))
    }

    @Test("Feature names that could garble listings, and unknown policies, are usage errors (2)",
          arguments: [["feature", "check", "a b"], ["feature", "enable", "x\ty"], ["feature", "enable", ""],
                      ["feature", "enable", "deploy", "--policy", "app-passcode"], ["run", "--feature", "a/b", "--", "/bin/true"]])
    func badNames(arguments: [String]) async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let result = try await home.sesame(arguments)
        #expect(result.status == 2, "\(result.stderr)")
    }
}
