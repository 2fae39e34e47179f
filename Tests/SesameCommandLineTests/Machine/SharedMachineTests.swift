#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux
import SesameTesting
import Testing

/// An app on `LinuxMachine` and the `sesame` CLI on the same account count
/// into one attempt record (SPEC E5): failures counted through either show
/// in the other and lock both out the same way. PAM is real (a pam_pwdfile
/// service installed under /etc/pam.d for the run, as the CLI reads only the
/// system's configuration: root, which CI has).
@Suite(
    "LinuxMachine and sesame share one attempt count",
    .serialized,
    .enabled(if: geteuid() == 0, "installs a PAM service under /etc/pam.d: run as root (CI does)"),
    .enabled(if: PAMTestService.isPwdfileInstalled, "pam_pwdfile is not installed: apt-get install libpam-pwdfile")
)
struct SharedMachineTests {
    private static let loginPassword = "l0gin pass phrase"

    /// A fresh account: its own home, state and data directories, and no
    /// fingerprint reader (the system bus is not there), so the device-owner
    /// policy falls to the login password.
    private struct Account {
        let home = NSTemporaryDirectory() + "sesame-shared-\(UUID().uuidString)"
        var environment: [String: String] {
            ["HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data", "PATH": "/usr/bin:/bin",
             "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent", "SESAME_REUSE_SCOPE": "shared-\(UUID().uuidString)"]
        }
        func file(_ name: String, _ contents: String) throws -> String {
            let path = home + "-secrets/" + name
            try FileManager.default.createDirectory(atPath: home + "-secrets", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        func remove() {
            try? FileManager.default.removeItem(atPath: home)
            try? FileManager.default.removeItem(atPath: home + "-secrets")
        }
    }

    /// The app's machine, answering PAM with `passwords` in order.
    private func appMachine(_ account: Account, service: String, passwords: [String]) throws -> LinuxMachine {
        let presenter = RecordingPresenter()
        for password in passwords { presenter.answerSecrets(.enter(password)) }
        var machine = try LinuxMachine(appName: "shared-test-app", pamService: service, presenter: presenter, environment: account.environment)
        // The process's own system bus may have a reader; this test is about
        // the login password, as the CLI's environment has no bus.
        machine.authenticators.sensor = nil
        return machine
    }

    private func cliFailures(_ account: Account, service: String) async throws -> Int? {
        let status = try await SesameBinary.run(["status", "--json", "--pam-service", service], environment: account.environment)
        let report = try #require(try JSONSerialization.jsonObject(with: status.output) as? [String: Any], "\(status.stderr)")
        let attempts = try #require(report["attempts"] as? [String: Any], "\(status.stdout)")
        return attempts["consecutivePasscodeFailures"] as? Int
    }

    @Test("SPEC E3: wrong login passwords through the app show in sesame status, the CLI's count in the app, and the fifth, by either, delays both")
    func loginPasswordFailuresAreShared() async throws {
        let service = PAMTestService(password: Self.loginPassword)
        defer { service.remove() }
        try service.install()
        let account = Account()
        defer { account.remove() }
        let environment = account.environment
        let created = try await SesameBinary.run(["init", "--scrypt-log2n", "10", "--passcode-fd", "3", "--device-key", "file"],
                                                 environment: environment, descriptor3: try account.file("passcode", "vault passcode"))
        #expect(created.status == 0, "\(created.stderr)")
        let put = try await SesameBinary.run(["put", "db", "--access", "device-passcode", "--pam-service", service.name],
                                             environment: environment, stdin: Data("db-password".utf8))
        #expect(put.status == 0, "\(put.stderr)")
        let wrongFile = try account.file("wrong", "not the password")

        // Two wrong passwords in the app…
        let app = try appMachine(account, service: service.name, passwords: ["wrong one", "wrong two"])
        for _ in 0..<2 {
            await #expect(throws: AuthenticationError.self) {
                try await app.context().evaluate(.deviceOwner, localizedReason: "Pay")
            }
        }
        #expect(try await cliFailures(account, service: service.name) == 2, "the app's failures are the CLI's")

        // …two in the CLI…
        for _ in 0..<2 {
            let wrong = try await SesameBinary.run(["get", "db", "--pam-service", service.name, "--password-fd", "3"],
                                                   environment: environment, descriptor3: wrongFile)
            #expect(wrong.status == 4, "\(wrong.stderr)")
        }
        #expect(try await app.authenticators.attempts.read().consecutivePasscodeFailures == 4, "the CLI's failures are the app's")

        // …and the fifth, in the app, starts the delay (BackoffSchedule.standard: 60 s) for both.
        let fifth = try appMachine(account, service: service.name, passwords: ["wrong five"])
        await #expect(throws: AuthenticationError.self) {
            try await fifth.context().evaluate(.deviceOwner, localizedReason: "Pay")
        }
        let right = try await SesameBinary.run(["get", "db", "--pam-service", service.name, "--password-fd", "3"],
                                               environment: environment, descriptor3: try account.file("right", Self.loginPassword))
        #expect(right.status == 6, "the CLI is delayed by the app's failures: \(right.stderr)")
        #expect(right.output.isEmpty)
        let appRight = try appMachine(account, service: service.name, passwords: [Self.loginPassword])
        do {
            try await appRight.context().evaluate(.deviceOwner, localizedReason: "Pay")
            Issue.record("the right password was accepted during the delay")
        } catch {
            #expect(error.retryAfter != nil, "refused for the delay, not as wrong: \(error)")
        }
    }

    @Test("SPEC A4: fingerprint non-matches counted through the app's machine lock biometry out in sesame status")
    func fingerprintFailuresAreShared() async throws {
        let account = Account()
        defer { account.remove() }
        let sensor = SimulatedSensor()
        var machine = try LinuxMachine(appName: "shared-test-app", presenter: RecordingPresenter(), environment: account.environment)
        machine.authenticators.sensor = sensor
        // A prompt gives up after three non-matches, the fifth in a row locks biometry out (SPEC A4).
        sensor.present(.noMatch, .noMatch, .noMatch, .noMatch, .noMatch)
        for _ in 0..<2 {
            let context = machine.context()
            context.fallbackTitle = ""
            await #expect(throws: AuthenticationError.self) {
                try await context.evaluate(.biometrics, localizedReason: "Pay")
            }
        }
        let status = try await SesameBinary.run(["status", "--json"], environment: account.environment)
        let report = try #require(try JSONSerialization.jsonObject(with: status.output) as? [String: Any], "\(status.stderr)")
        let attempts = try #require(report["attempts"] as? [String: Any], "\(status.stdout)")
        #expect(attempts["consecutiveBiometricFailures"] as? Int == 5, "\(attempts)")
        #expect(attempts["biometricLockout"] as? Bool == true, "\(attempts)")
    }
}
#endif
