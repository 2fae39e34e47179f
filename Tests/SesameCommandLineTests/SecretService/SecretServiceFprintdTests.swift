#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame secret-service --default-access biometry-any` against the real
/// fprintd (virtual reader) and libsecret's `secret-tool`: a locked item
/// opens after the owner's scan through Unlock and its Prompt, and not after
/// strangers' scans (SPEC D1, D3, D10). The server runs in a terminal so the
/// test sees its prompt.
@Suite(
    "sesame secret-service: a finger for a locked item, real fprintd",
    .serialized,
    .timeLimit(.minutes(3)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && PrivateSessionBus.missingComponents.isEmpty
             && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
             && FileManager.default.isExecutableFile(atPath: SecretTool.path),
             "needs fprintd, dbus-daemon, python3-dbusmock, util-linux's script and libsecret-tools")
)
struct SecretServiceFprintdTests {
    @Test("D10: secret-tool lookup of a biometry-any item opens after a matching scan; the next secret-tool is asked again and three strangers' scans open nothing")
    func lookupNeedsTheFinger() async throws {
        let harness = try await FprintdHarness.start()
        defer { harness.stop() }
        try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        let place = try VaultHome(systemBus: harness.systemBusAddress)
        defer { place.remove() }
        try await place.createVault()
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }

        var environment = place.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let server = try TerminalSession(
            arguments: ["secret-service", "--default-access", "biometry-any", "--unlock-seconds", "300"], environment: environment)
        defer { server.process.terminate() }
        let ready = try await SecretTool.waitForProvider(bus)
        try #require(ready, "sesame secret-service did not start: \(server.text)")

        // Storing needs no finger (the keychain's add never prompts, SPEC D2).
        let stored = try await SecretTool.run(bus, ["store", "--label=Mail", "service", "mail-example"], input: "owner's value")
        #expect(stored.status == 0, "\(stored.output)")

        async let opened = SecretTool.run(bus, ["lookup", "service", "mail-example"])
        try await server.waitUntilScanning(harness)
        #expect(server.text.contains("secret-tool"), "the prompt names the calling program: \(server.text)")
        try await harness.scan("owner")
        let lookup = try await opened
        #expect(lookup.status == 0, "\(lookup.output)")
        #expect(lookup.output == "owner's value")

        // That opening was the first secret-tool's alone (SPEC D10, "for the caller"): well within its
        // 300 s the next program is asked again, and strangers open nothing.
        async let refused = SecretTool.run(bus, ["lookup", "service", "mail-example"])
        for _ in 0..<3 {
            try await server.waitUntilScanning(harness)
            try await harness.scan("stranger")
            try await Task.sleep(for: .milliseconds(300))
        }
        let denied = try await refused
        #expect(denied.status != 0, "a stranger's finger opened the item: \(denied.output)")
        #expect(!denied.output.contains("owner's value"))
    }
}
#endif
