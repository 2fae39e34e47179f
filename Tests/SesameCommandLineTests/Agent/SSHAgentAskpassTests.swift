#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import Testing
import SesameSSH

/// `sesame ssh-agent` without a terminal and a `device-passcode` key: the
/// login password is asked through `$SSH_ASKPASS`, as OpenSSH asks, and
/// checked by the real Linux-PAM; every prompt is also a desktop notification
/// on the session bus (python-dbusmock's notification daemon records it)
/// (SPEC D7, G).
@Suite(
    "sesame ssh-agent: the login password through SSH_ASKPASS, real PAM",
    .serialized,
    .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
    .enabled(if: PAMTestService.isPwdfileInstalled, "pam_pwdfile is not installed: apt-get install libpam-pwdfile")
)
struct SSHAgentAskpassTests {
    @Test("D7, G: a device-passcode key signs after SSH_ASKPASS gives the right login password, not after a wrong one")
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

        // A private session bus with python-dbusmock's notification daemon,
        // which logs every Notify call: the agent's desktop notifications.
        let sessionBus = Process(), daemon = Process(), notificationLog = place.file("notifications.log")
        sessionBus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        sessionBus.arguments = ["--config-file=/usr/share/dbus-1/session.conf", "--print-address=1", "--nofork"]
        let printed = Pipe()
        sessionBus.standardOutput = printed
        sessionBus.standardError = FileHandle.nullDevice
        try sessionBus.run()
        // SIGKILL by pid: Process.terminate() left both running once the test ended.
        defer { kill(sessionBus.processIdentifier, SIGKILL) }
        let sessionAddress = String(decoding: printed.fileHandleForReading.availableData, as: UTF8.self)
            .split(separator: "\n").first.map(String.init) ?? ""
        try #require(sessionAddress.hasPrefix("unix:"), "no session bus: \(sessionAddress)")
        daemon.executableURL = URL(fileURLWithPath: TestPython.path)
        daemon.arguments = ["-m", "dbusmock", "--session", "-t", "notification_daemon", "-l", notificationLog]
        daemon.environment = ["DBUS_SESSION_BUS_ADDRESS": sessionAddress, "PATH": "/usr/bin:/bin"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { kill(daemon.processIdentifier, SIGKILL) }
        try await Task.sleep(for: .seconds(1))

        for (answer, signs) in [("not my password", false), ("l0gin pass phrase", true)] {
            let askpass = place.file("askpass-\(UUID().uuidString)")
            try ExecutableScript.write("#!/bin/sh\nprintf '%s\\n' '\(answer)'\n", to: askpass, mode: 0o700)
            var environment = place.environment
            environment["SSH_ASKPASS"] = askpass
            environment["DBUS_SESSION_BUS_ADDRESS"] = sessionAddress
            let agent = try await AgentProcess(place: place, socket: place.file("run-\(signs)/agent.sock"),
                                               arguments: ["--pam-service", service.name], interactive: true, environment: environment)
            defer { agent.stop() }
            let signed = try await agent.client("ssh-keygen", ["-Y", "sign", "-f", publicKey, "-n", "file", message])
            #expect((signed.status == 0) == signs, "\(answer): \(signed.stderr)")
            #expect(FileManager.default.fileExists(atPath: message + ".sig") == signs)
            try? FileManager.default.removeItem(atPath: message + ".sig")
        }
        var logged = ""
        for _ in 0..<300 where !logged.contains("Notify") {
            logged = (try? String(contentsOfFile: notificationLog, encoding: .utf8)) ?? ""
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(logged.contains("Notify") && logged.contains("`ssh-keygen` (pid ") && logged.contains("wants to sign a file or commit with ops"), "a desktop notification per prompt: \(logged)")
    }
}
#endif
