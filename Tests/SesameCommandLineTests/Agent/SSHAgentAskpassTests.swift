#if os(Linux)
import Foundation
import Glibc
import Testing

/// `sesame ssh-agent` without a terminal and a `device-passcode` key: the
/// login password is asked through `$SSH_ASKPASS`, as OpenSSH asks, and
/// checked by the real Linux-PAM (issue 15).
@Suite(
    "sesame ssh-agent: the login password through SSH_ASKPASS, real PAM",
    .serialized,
    .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
    .enabled(if: PAMTestService.isPwdfileInstalled, "pam_pwdfile is not installed: apt-get install libpam-pwdfile")
)
struct SSHAgentAskpassTests {
    @Test("issue 15: a device-passcode key signs after SSH_ASKPASS gives the right login password, not after a wrong one")
    func askpass() async throws {
        let service = PAMTestService(password: "l0gin pass phrase")
        defer { service.remove() }
        try service.install()
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let created = try await place.sesame(["key", "create", "ops", "--service", "ssh", "--algorithm", "ed25519", "--access", "device-passcode",
                                              "--no-interaction"])
        try #require(created.status == 0, "\(created.stderr)")
        let publicKey = place.file("ops.pub"), message = place.file("message")
        try created.output.write(to: URL(fileURLWithPath: publicKey))
        try Data("deploy\n".utf8).write(to: URL(fileURLWithPath: message))

        for (answer, signs) in [("not my password", false), ("l0gin pass phrase", true)] {
            let askpass = place.file("askpass-\(UUID().uuidString)")
            try Data("#!/bin/sh\nprintf '%s\\n' '\(answer)'\n".utf8).write(to: URL(fileURLWithPath: askpass))
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: askpass)
            var environment = place.environment
            environment["SSH_ASKPASS"] = askpass
            let agent = try await AgentProcess(place: place, socket: place.file("run-\(signs)/agent.sock"),
                                               arguments: ["--pam-service", service.name], interactive: true, environment: environment)
            defer { agent.stop() }
            let signed = try await agent.client("ssh-keygen", ["-Y", "sign", "-f", publicKey, "-n", "file", message])
            #expect((signed.status == 0) == signs, "\(answer): \(signed.stderr)")
            #expect(FileManager.default.fileExists(atPath: message + ".sig") == signs)
            try? FileManager.default.removeItem(atPath: message + ".sig")
        }
    }
}
#endif
