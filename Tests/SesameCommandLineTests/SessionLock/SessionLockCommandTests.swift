import Foundation
import SesameLinuxTesting
import Testing

/// `sesame get` under the accessibility classes (SPEC D14), with a fake
/// logind (python-dbusmock's template) as the session manager on the bus
/// `sesame` is given: exit 13 and a message that says why while locked.
@Suite(
    "Session lock: sesame get",
    .timeLimit(.minutes(3)),
    .enabled(if: FakeLogind.missingComponents.isEmpty, "needs dbus-daemon and python3-dbusmock")
)
struct SessionLockCommandTests {
    /// A vault on `logind`'s bus, used from session `session`, with marks
    /// of its own in the keyring (the home's scope; `remove()` forgets them).
    private func place(_ logind: FakeLogind?, session: String? = "2") throws -> (VaultHome, [String: String]) {
        let home = try VaultHome(systemBus: logind?.systemBusAddress)
        var environment = home.environment
        environment["XDG_SESSION_ID"] = session
        return (home, environment)
    }

    private func get(_ name: String, _ environment: [String: String]) async throws -> SesameBinary.Result {
        try await SesameBinary.run(["get", name, "--no-interaction"], environment: environment)
    }

    @Test("D14: a when-unlocked item is refused with exit 13 while the session is locked or going to sleep, and opens after unlock")
    func whenUnlocked() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        try await logind.addSession("2")
        let (home, environment) = try place(logind)
        defer { home.remove() }
        try await home.createVault()
        try await home.put("token", Data("s3cret".utf8))

        #expect(try await get("token", environment).stdout == "s3cret")

        try await logind.lock("2")
        let refused = try await get("token", environment)
        #expect(refused.status == 13, "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("readable only while your session is unlocked"), "\(refused.stderr)")
        #expect(refused.stderr.contains("locked (session 2's LockedHint)"), "\(refused.stderr)")

        try await logind.unlock("2")
        let opened = try await get("token", environment)
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout == "s3cret")

        try await logind.prepareForSleep(true)
        let sleeping = try await get("token", environment)
        #expect(sleeping.status == 13, "\(sleeping.stderr)")
        #expect(sleeping.stderr.contains("going to sleep"), "\(sleeping.stderr)")
        try await logind.prepareForSleep(false)
        #expect(try await get("token", environment).status == 0)
    }

    @Test("D14: an after-first-unlock item is refused before the first unlock since boot, then opens, also while locked again")
    func afterFirstUnlock() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        try await logind.addSession("2")
        try await logind.lock("2")
        let (home, environment) = try place(logind)
        defer { home.remove() }
        try await home.createVault()
        try await home.put("backup-key", Data("k".utf8), arguments: ["--accessibility", "after-first-unlock"])

        let early = try await get("backup-key", environment)
        #expect(early.status == 13, "\(early.stderr)")
        #expect(early.stderr.contains("after the first unlock"), "\(early.stderr)")

        try await logind.unlock("2")
        #expect(try await get("backup-key", environment).stdout == "k")
        try await logind.lock("2")
        let later = try await get("backup-key", environment)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdout == "k")
        // A when-unlocked item beside it is still refused.
        try await home.put("token", Data("t".utf8))
        #expect(try await get("token", environment).status == 13)
    }

    @Test("D14: no session manager (no system bus, or no logind on it): items open, as stated; logind without the user's session: exit 13")
    func withoutLogind() async throws {
        let (home, environment) = try place(nil)
        defer { home.remove() }
        try await home.createVault()
        try await home.put("token", Data("s3cret".utf8))
        try await home.put("backup-key", Data("k".utf8), arguments: ["--accessibility", "after-first-unlock"])
        #expect(try await get("token", environment).stdout == "s3cret")
        #expect(try await get("backup-key", environment).stdout == "k")

        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        var noLogind = environment
        noLogind["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        #expect(try await get("token", noLogind).stdout == "s3cret")

        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        var noSession = environment
        noSession["DBUS_SYSTEM_BUS_ADDRESS"] = logind.systemBusAddress
        noSession["XDG_SESSION_ID"] = nil
        let refused = try await get("token", noSession)
        #expect(refused.status == 13, "\(refused.stderr)")
        #expect(refused.stderr.contains("no session"), "\(refused.stderr)")
    }

    @Test("D14, G: doctor says whether the lock is observed: the session found, whether the locker was seen to set LockedHint; not observed without logind")
    func doctor() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        try await logind.addSession("2")
        let (home, environment) = try place(logind)
        defer { home.remove() }
        let doctor = { () async throws -> SetupCommandTests.Check? in
            try SetupCommandTests.check("session", try await SesameBinary.run(["doctor", "--json"], environment: environment).stdout)
        }
        let before = try #require(try await doctor())
        #expect(before.status == "ok")
        #expect((before.detail ?? "").hasPrefix("logind session 2: unlocked"), "\(before.detail ?? "")")
        #expect((before.detail ?? "").contains("no screen lock seen yet this boot"), "\(before.detail ?? "")")
        try await logind.lock("2")
        let locked = try #require(try await doctor())
        #expect((locked.detail ?? "").hasPrefix("logind session 2: locked"), "\(locked.detail ?? "")")
        #expect((locked.detail ?? "").contains("seen to set LockedHint"), "\(locked.detail ?? "")")

        let (bare, bareEnvironment) = try place(nil)
        defer { bare.remove() }
        let unobserved = try #require(try SetupCommandTests.check("session", try await SesameBinary.run(["doctor", "--json"], environment: bareEnvironment).stdout))
        #expect(unobserved.status == "warning")
        #expect((unobserved.detail ?? "").contains("not observed"), "\(unobserved.detail ?? "")")
    }
}
