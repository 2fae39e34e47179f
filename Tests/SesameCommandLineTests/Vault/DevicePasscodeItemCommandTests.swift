#if os(Linux)
import Foundation
import Glibc
import SesameTesting
import Testing

private let isPwdfileInstalled = ["/lib/x86_64-linux-gnu/security", "/usr/lib/x86_64-linux-gnu/security", "/lib/security", "/usr/lib/security"]
    .contains { FileManager.default.fileExists(atPath: "\($0)/pam_pwdfile.so") }

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
    .enabled(if: isPwdfileInstalled, "pam_pwdfile is not installed: apt-get install libpam-pwdfile")
)
struct DevicePasscodeItemCommandTests {
    private static let loginPassword = "l0gin pass phrase"

    /// A PAM service `/etc/pam.d/<name>` accepting only `loginPassword` for
    /// the user running the tests.
    private struct InstalledService {
        let name = "sesame-test-\(UUID().uuidString.prefix(8).lowercased())"
        let directory = NSTemporaryDirectory() + "sesame-pam-cli-\(UUID().uuidString)"

        var serviceFile: String { "/etc/pam.d/\(name)" }

        func install() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
            try PwdfileAccount.write(user: user, password: DevicePasscodeItemCommandTests.loginPassword, to: "\(directory)/pwdfile")
            let lines = ["auth required pam_pwdfile.so pwdfile=\(directory)/pwdfile nodelay", "account required pam_permit.so"]
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: serviceFile))
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: serviceFile)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test("SPEC D1, D4: --password-fd opens a device-passcode item through PAM; a wrong password exits 4 and counts one failure")
    func devicePasscodeFromDescriptor() async throws {
        let service = InstalledService()
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
