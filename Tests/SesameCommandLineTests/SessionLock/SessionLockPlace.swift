import Foundation
import SesameLinuxTesting

/// The real fprintd (virtual reader, "owner" enrolled on the right index
/// finger) and a fake logind with session 2 on the same private system bus,
/// and a home whose environment is session 2's, for the session lock suites.
struct SessionLockPlace {
    let harness: FprintdHarness
    let logind: FakeLogind
    let home: VaultHome
    /// The home's environment in session 2 (its keyring scope is the home's).
    var environment: [String: String]

    static func start() async throws -> SessionLockPlace {
        let harness = try await FprintdHarness.start()
        let logind: FakeLogind
        do {
            logind = try await FakeLogind.start(systemBusAddress: harness.systemBusAddress)
            try await logind.addSession("2")
            try await harness.enrol(finger: "right-index-finger", scanID: "owner")
        } catch {
            harness.stop()
            throw error
        }
        let home = try VaultHome(systemBus: harness.systemBusAddress)
        var environment = home.environment
        environment["XDG_SESSION_ID"] = "2"
        return SessionLockPlace(harness: harness, logind: logind, home: home, environment: environment)
    }

    func stop() {
        home.remove()
        logind.stop()
        harness.stop()
    }
}
