#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame passkey serve` with the owner's finger, against the real fprintd
/// (libfprint's virtual reader) and python-fido2 over the HID socket: the
/// owner's scan verifies, a stranger's scans do not and end in an error, and
/// CTAPHID CANCEL ends a request that waits for the finger (SPEC P1, P3).
@Suite(
    "sesame passkey serve: the owner's finger through real fprintd, strangers refused, CANCEL stops the scan",
    .serialized,
    .timeLimit(.minutes(4)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
             "needs fprintd, dbus-daemon, python3-dbusmock and util-linux's script"),
    .enabled(if: Fido2Python.isInstalled, "python-fido2 2.x is not installed: pip install fido2 (CI does)")
)
struct PasskeyFprintdTests {
    private func client(_ scenario: String, socket: String, place: VaultHome) async throws -> SesameBinary.Result {
        try await SesameBinary.run([PasskeyServeTests.client, socket, scenario, place.file("credential.bin")],
                                   environment: ["PATH": "/usr/bin:/bin", "HOME": place.home],
                                   executable: URL(fileURLWithPath: TestPython.path))
    }

    @Test("P1, P3: the owner's scans register and sign in; a stranger's scans sign nothing and end in an error; CANCEL ends a waiting request and its scan")
    func finger() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let place = try VaultHome(systemBus: harness.systemBusAddress)
        defer { place.remove() }
        try await place.createVault()
        let socket = place.file("run/passkey.sock")
        let serve = try TerminalSession(arguments: ["passkey", "serve", "--hid-socket", socket], environment: place.environment)
        defer { serve.process.terminate() }
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(25)) }
        try #require(FileManager.default.fileExists(atPath: socket), "passkey serve never listened: \(serve.text)")

        // Registration (its token's verification), then an assertion (another token's): one scan each.
        async let registering = client("register", socket: socket, place: place)
        for _ in 0..<2 {
            try await serve.waitUntilScanning(harness)
            try await harness.scan("owner")
        }
        let registered = try await registering
        #expect(registered.status == 0 && registered.stdout.contains("\"asserted\": true"), "\(registered.stderr)\n\(serve.text)")
        #expect(serve.text.contains("example.com"), "the prompt names the relying party: \(serve.text)")

        async let refusing = client("discoverable", socket: socket, place: place)
        for _ in 0..<3 {
            try await serve.waitUntilScanning(harness)
            try await harness.scan("stranger")
            try await Task.sleep(for: .milliseconds(300))
        }
        let refused = try await refusing
        #expect(refused.status != 0 && !refused.stdout.contains("\"asserted\": true"), "\(refused.stdout)")

        // The client sends CANCEL a second after it began; nobody scans.
        let before = serve.text.components(separatedBy: "cancelled").count
        let cancelled = try await client("cancel", socket: socket, place: place)
        #expect(cancelled.status == 0 && cancelled.stdout.contains("\"registered\": false") && cancelled.stdout.contains("KEEPALIVE_CANCEL"), "\(cancelled.stdout) \(cancelled.stderr)")
        try await serve.waitForScreen("cancelled", seconds: 10)
        #expect(serve.text.components(separatedBy: "cancelled").count > before)
        #expect(try await place.sesame(["passkey", "ls"]).stdout.split(separator: "\n").count == 1)
    }
}
#endif
