#if os(Linux)
import Foundation
import Glibc
import SesameTesting
import Testing

/// A `device-passcode` item opened by a script with `--password-fd`, checked
/// by the real Linux-PAM. The `sesame` binary reads only the system's PAM
/// configuration (a private directory would let anyone who controls its
/// arguments pick the rules), so the test installs a pam_pwdfile service
/// under /etc/pam.d for the run and removes it afterwards: it needs root,
/// which CI has.
@Suite(
    "sesame get: device-passcode items, real PAM",
    .serialized,
    .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
    .enabled(if: PAMTestService.isPwdfileInstalled, "pam_pwdfile is not installed: apt-get install libpam-pwdfile")
)
struct DevicePasscodeItemCommandTests {
    private static let loginPassword = "l0gin pass phrase"

    @Test("SPEC D1, D4: --password-fd opens a device-passcode item through PAM; a wrong password exits 4 and counts one failure")
    func devicePasscodeFromDescriptor() async throws {
        let service = PAMTestService(password: Self.loginPassword)
        defer { service.remove() }
        try service.install()
        let home = NSTemporaryDirectory() + "sesame-pam-home-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        // No fingerprint reader here: the item falls to the login password.
        let environment = ["HOME": home, "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"]
        let secrets = home + "-secrets"
        try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: secrets) }
        let passcodeFile = secrets + "/passcode", rightFile = secrets + "/right", wrongFile = secrets + "/wrong"
        try Data("vault passcode".utf8).write(to: URL(fileURLWithPath: passcodeFile))
        try Data((Self.loginPassword + "\n").utf8).write(to: URL(fileURLWithPath: rightFile))
        try Data("not the password".utf8).write(to: URL(fileURLWithPath: wrongFile))

        let created = try await SesameBinary.run(["init", "--scrypt-log2n", "10", "--passcode-fd", "3"],
                                                 environment: environment, descriptor3: passcodeFile)
        #expect(created.status == 0, "\(created.stderr)")
        let value = Data("db-password-\(UUID().uuidString)".utf8)
        let put = try await SesameBinary.run(["put", "db", "--access", "device-passcode", "--pam-service", service.name],
                                             environment: environment, stdin: value)
        #expect(put.status == 0, "\(put.stderr)")

        let wrong = try await SesameBinary.run(["get", "db", "--pam-service", service.name, "--password-fd", "3"],
                                               environment: environment, descriptor3: wrongFile)
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(wrong.output.isEmpty)
        #expect(wrong.stderr.contains("--password-fd"))
        #expect(!wrong.stderr.contains("not the password"))
        let status = try await SesameBinary.run(["status", "--json", "--pam-service", service.name], environment: environment)
        let report = try #require(try JSONSerialization.jsonObject(with: status.output) as? [String: Any])
        let attempts = try #require(report["attempts"] as? [String: Any], "\(status.stdout)")
        #expect(attempts["consecutivePasscodeFailures"] as? Int == 1, "one counted failure, not three")

        let right = try await SesameBinary.run(["get", "db", "--pam-service", service.name, "--password-fd", "3"],
                                               environment: environment, descriptor3: rightFile)
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.output == value)
        #expect(!right.stderr.contains(Self.loginPassword))

        // Without the descriptor and without a terminal, nothing can answer PAM.
        let unanswered = try await SesameBinary.run(["get", "db", "--pam-service", service.name], environment: environment)
        #expect(unanswered.status == 10, "\(unanswered.stderr)")
    }
}
#endif
