#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame secret-service` ends its clients' openings at a lock of the
/// owner's session (SPEC D14, D10): real fprintd opens the item for a
/// python-secretstorage client, a fake logind on the same system bus locks
/// the session, and the client sees its item locked again.
@Suite(
    "Session lock: the Secret Service's openings, real fprintd",
    .serialized,
    .timeLimit(.minutes(3)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty && PrivateSessionBus.missingComponents.isEmpty
             && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
             && FileManager.default.isExecutableFile(atPath: SecretTool.path),
             "needs fprintd, dbus-daemon, python3-dbusmock, util-linux's script and libsecret-tools")
)
struct SessionLockSecretServiceTests {
    /// A client that keeps its connection: opens the item (the server asks
    /// for the finger), reads it, then waits for the lock.
    private static let client = """
        import secretstorage, sys, time
        from secretstorage.exceptions import LockedException
        conn = secretstorage.dbus_init()
        item = next(secretstorage.get_default_collection(conn).search_items({'service': 'mail-example'}))
        print('locked before', item.is_locked(), flush=True)
        item.unlock()
        print('secret', item.get_secret().decode(), flush=True)
        open(sys.argv[1], 'w').write('opened')
        deadline = time.monotonic() + 20
        while not item.is_locked() and time.monotonic() < deadline:
            time.sleep(0.05)
        print('locked after', item.is_locked(), flush=True)
        try:
            item.get_secret()
            print('secret after: read')
        except LockedException:
            print('secret after: LockedException')
        """

    @Test("D14, D10: an item a client opened is locked again at the session's lock; the client's next read is refused")
    func lockEndsOpenings() async throws {
        let place = try await SessionLockPlace.start()
        defer { place.stop() }
        let (harness, logind) = (place.harness, place.logind)
        try await place.home.createVault()
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }

        var environment = place.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let server = try TerminalSession(
            arguments: ["secret-service", "--default-access", "biometry-any", "--unlock-seconds", "300"], environment: environment)
        defer { server.process.terminate() }
        let ready = try await SecretTool.waitForProvider(bus)
        try #require(ready, "sesame secret-service did not start: \(server.text)")
        let stored = try await SecretTool.run(bus, ["store", "--label=Mail", "service", "mail-example"], input: "owner's value")
        #expect(stored.status == 0, "\(stored.output)")

        let opened = place.home.file("opened")
        async let output = bus.run(TestPython.path, ["-c", Self.client, opened])
        do {
            // The item is secret-tool's: the server asks whether python may have it, then for the finger.
            try await server.waitForScreen("Allow once")
            server.type("o")
            try await server.waitUntilScanning(harness)
        } catch {
            let failed = (try? await output) ?? (status: -1, output: "(did not end)")
            Issue.record("no scan was asked for: \(error); the client said: \(failed.output); the server: \(server.text)")
            return
        }
        try await harness.scan("owner")
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: opened) { try await Task.sleep(for: .milliseconds(25)) }
        try await logind.lock("2")
        let result = try await output
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("locked before True"), "\(result.output)")
        #expect(result.output.contains("secret owner's value"), "\(result.output)")
        #expect(result.output.contains("locked after True"), "\(result.output)")
        #expect(result.output.contains("secret after: LockedException"), "\(result.output)")
        #expect(server.text.contains("has ended"), "\(server.text)")
    }
}
#endif
