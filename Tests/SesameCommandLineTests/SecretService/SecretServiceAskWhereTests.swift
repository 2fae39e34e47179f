#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import Testing

/// `sesame secret-service` started in the background asks each caller where
/// that caller is (issue 47): `secret-tool` in a terminal is asked on that
/// terminal, never on `$GPG_TTY`; one without a terminal or a display is
/// refused at once, the log saying nobody could be asked. Real dbus-daemon,
/// real pseudo-terminals, libsecret's `secret-tool`, real Linux-PAM.
@Suite(
    "sesame secret-service: asks on the caller's terminal, real terminals, bus and PAM",
    .serialized,
    .timeLimit(.minutes(2)),
    .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
    .enabled(if: PAMTestService.isPwdfileInstalled && PrivateSessionBus.missingComponents.isEmpty
             && FileManager.default.isExecutableFile(atPath: "/usr/bin/script") && FileManager.default.isExecutableFile(atPath: SecretTool.path),
             "needs pam_pwdfile, dbus-daemon, util-linux's script and libsecret-tools")
)
struct SecretServiceAskWhereTests {
    @Test("SPEC A3, D10, G: a caller in terminal B is asked on B, not on GPG_TTY's A; a caller with neither terminal nor display is refused, nobody asked")
    func askedWhereTheCallerIs() async throws {
        let password = "l0gin pass phrase"
        let service = PAMTestService(password: password)
        defer { service.remove() }
        try service.install()
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }

        // Terminal A only names itself, as the shell that started the service would in GPG_TTY.
        let shellA = try TerminalSession(shellCommand: "echo \"tty=$(tty)\"; exec sleep 600", environment: place.environment)
        defer { shellA.process.terminate() }
        try await shellA.waitForScreen("tty=/dev/")
        let terminalA = try #require(shellA.text.split(separator: "tty=").last.map { String($0.prefix { !$0.isWhitespace }) })
        var environment = place.environment
        environment["GPG_TTY"] = terminalA
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        // Its own process group, no terminal in its foreground: it has nowhere of its own to ask.
        let server = try await bus.startDaemon(SesameBinary.url.path, ["secret-service", "--default-access", "device-passcode",
                                                                       "--pam-service", service.name], environment: environment, log: "service.log")
        defer { server.stop() }
        try #require(try await SecretTool.waitForProvider(bus), "sesame secret-service did not start")
        let stored = try await SecretTool.run(bus, ["store", "--label=Mail", "service", "mail-example"], input: "owner's value")
        try #require(stored.status == 0, "\(stored.output)")

        let lookup = TerminalSession.quoted([SecretTool.path, "lookup", "service", "mail-example"])
        let shellB = try TerminalSession(shellCommand: "\(lookup); echo; echo \"looked=$?\"", environment: environment)
        defer { shellB.process.terminate() }
        try await shellB.waitForScreen("secret-tool")
        try await shellB.waitForScreen("assword")
        shellB.type(password + "\r")
        try await shellB.waitForScreen("looked=")
        #expect(shellB.text.contains("owner's value"), "\(shellB.text)")
        #expect(!shellA.text.contains("assword") && !shellA.text.contains("secret-tool") && !shellA.text.contains(password), "\(shellA.text)")

        // No terminal (setsid) and no display: refused at once, and the log says why.
        let began = Date()
        let refused = try await bus.run("/usr/bin/setsid", ["--wait", SecretTool.path, "lookup", "service", "mail-example"], environment: environment)
        #expect(!refused.output.contains("owner's value"), "\(refused.output)")
        #expect(Date().timeIntervalSince(began) < 10, "refused at once")
        var log = ""
        for _ in 0..<300 where !log.contains("opened nothing") {
            log = (try? String(contentsOfFile: bus.directory + "/service.log", encoding: .utf8)) ?? ""
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(log.contains("nobody could be asked") && log.contains("`secret-tool` (pid ") && log.contains("no terminal"), "\(log)")
        #expect(!log.contains("cancelled"), "\(log)")
    }
}
#endif
