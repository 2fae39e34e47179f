import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame status`, the README's first command, run as a user runs it.
@Suite("sesame status")
struct StatusCommandTests {
    private let home: String

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    private func environment(bus: String) -> [String: String] {
        ["HOME": home, "PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": bus, "SESAME_REUSE_SCOPE": KeyringScope.of(home: home)]
    }

    private func json(_ result: SesameBinary.Result) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("A2: Reports every authenticator with a reason on a machine without a system bus, and creates no file")
    func noSystemBus() async throws {
        defer { KeyringScope.remove(home: home) }
        let result = try await SesameBinary.run(["status"], environment: environment(bus: "unix:path=\(home)/no-such-socket"))
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("fingerprint      not available: cannot connect to the system bus") == true)
        #expect(lines.contains { $0.hasPrefix("login password  ") })
        #expect(lines.contains { $0.hasPrefix("vault passcode   not set") })
        #expect(lines.contains { $0.hasPrefix("attempts         \(home)/.local/state/sesame/attempts.json") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty, "status never writes")
    }

    @Test("A2: --json carries stable reason codes")
    func jsonShape() async throws {
        defer { KeyringScope.remove(home: home) }
        let result = try await SesameBinary.run(["status", "--json", "--pam-service", "sesame-no-such-service"],
                                          environment: environment(bus: "unix:path=\(home)/no-such-socket"))
        #expect(result.status == 0)
        let report = try json(result)
        let fingerprint = try #require(report["fingerprint"] as? [String: Any])
        #expect(fingerprint["state"] as? String == "notAvailable")
        #expect(fingerprint["reasonCode"] as? String == "noSystemBus")
        let passcode = try #require(report["devicePasscode"] as? [String: Any])
        #expect(passcode["state"] as? String == "notSet")
        #expect(passcode["reasonCode"] as? String == "notConfigured")
        #expect(passcode["service"] as? String == "sesame-no-such-service")
        #expect((passcode["reason"] as? String)?.contains("/etc/pam.d/sesame-no-such-service") == true)
    }

    @Test("G: An invalid PAM service name is a usage error, not a crash")
    func invalidService() async throws {
        defer { KeyringScope.remove(home: home) }
        let result = try await SesameBinary.run(["status", "--pam-service", "../etc/passwd"], environment: environment(bus: "unix:path=/nonexistent"))
        #expect(result.status != 0)
        #expect(result.stderr.contains("Error"))
        #expect(result.stdout.isEmpty)
    }

    @Test("A2: Shows the real fingerprint state from fprintd: not running, no finger, ready with the enrolled finger",
          .enabled(if: FprintdHarness.missingComponents.isEmpty,
                   "needs fprintd, dbus-daemon and python3-dbusmock; missing: \(FprintdHarness.missingComponents.joined(separator: ", "))"))
    func realFprintd() async throws {
        defer { KeyringScope.remove(home: home) }
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        let bus = harness.systemBusAddress

        let empty = try json(await SesameBinary.run(["status", "--json"], environment: environment(bus: bus)))
        #expect((empty["fingerprint"] as? [String: Any])?["state"] as? String == "notEnrolled")

        try await harness.enrol(finger: "left-thumb", scanID: "owner")
        let ready = try await SesameBinary.run(["status"], environment: environment(bus: bus))
        #expect(ready.stdout.contains("fingerprint      ready"))
        #expect(ready.stdout.contains("device: Virtual device for debugging"))
        #expect(ready.stdout.contains("enrolled: left-thumb"))

        harness.stopFprintd()
        let stopped = try json(await SesameBinary.run(["status", "--json"], environment: environment(bus: bus)))
        let fingerprint = try #require(stopped["fingerprint"] as? [String: Any])
        #expect(fingerprint["reasonCode"] as? String == "serviceNotRunning")
        #expect(fingerprint["reason"] as? String == "fprintd is not running")
    }
}
