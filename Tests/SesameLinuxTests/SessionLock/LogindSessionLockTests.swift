import Foundation
import Sesame
import SesameLinux
import SesameLinuxTesting
import Testing

private let logindMissingNote: Comment = "needs dbus-daemon and python3-dbusmock; missing: \(FakeLogind.missingComponents.joined(separator: ", "))"

/// logind as the session manager (SPEC D14), through python-dbusmock's
/// logind template on a private system bus.
@Suite("Session lock: logind", .timeLimit(.minutes(2)), .enabled(if: FakeLogind.missingComponents.isEmpty, logindMissingNote))
struct LogindSessionLockTests {
    /// A monitor of `session` on the fake's bus, with marks of the fake's own.
    private func monitor(_ logind: FakeLogind, session: String?) -> LogindSessionLock {
        LogindSessionLock(.init(systemBusAddress: logind.systemBusAddress, sessionID: session, markScope: logind.directory))
    }

    /// Removes the marks the fake's monitors left in the keyring.
    private func forgetMarks(_ logind: FakeLogind) {
        LogindSessionLock(.init(markScope: logind.directory)).forgetMarks()
    }

    @Test("D14: the caller's session is unlocked, locked by the locker, unlocked again, and going to sleep")
    func oneShotReads() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        defer { forgetMarks(logind) }
        try await logind.addSession("2")
        let monitor = monitor(logind, session: "2")

        var state = await monitor.state()
        #expect(state.condition == .unlocked)
        #expect(state.session == "2")
        #expect(!state.isLocked)

        try await logind.lock("2")
        state = await monitor.state()
        #expect(state.condition == .locked)
        #expect(state.isLocked)
        #expect(state.summary == "locked (session 2's LockedHint)")
        #expect(monitor.lockSeenSinceBoot())

        try await logind.unlock("2")
        #expect(await monitor.state().condition == .unlocked)

        try await logind.prepareForSleep(true)
        #expect(await monitor.state().condition == .goingToSleep)
        try await logind.prepareForSleep(false)
        #expect(await monitor.state().condition == .unlocked)
    }

    @Test("D14: without XDG_SESSION_ID, or with a stale one, the user's session is found")
    func findsTheUsersSession() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        defer { forgetMarks(logind) }
        try await logind.addSession("c7")
        try await logind.lock("c7")
        for session in [nil, "99"] as [String?] {
            let state = await monitor(logind, session: session).state()
            #expect(state.session == "c7")
            #expect(state.condition == .locked)
        }
    }

    @Test("D14: logind answers but the user has no session: no session, treated as locked")
    func noSession() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        defer { forgetMarks(logind) }
        try await logind.addSession("3", uid: getuid() + 1, userName: "someone-else")
        let state = await monitor(logind, session: nil).state()
        #expect(state.condition == .noSession)
        #expect(state.isLocked)
        #expect(state.detail == "logind has no session of uid \(getuid())")
    }

    @Test("D14: no logind on the bus, or no bus at all: not observed, treated as unlocked, and said so")
    func unobserved() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let noLogind = await LogindSessionLock(.init(systemBusAddress: bus.address, markScope: UUID().uuidString)).state()
        #expect(noLogind.condition == .unobserved)
        #expect(!noLogind.isLocked)
        #expect(noLogind.unlockedSinceBoot)
        #expect(noLogind.detail == "no session manager: logind is not on the system bus")

        let noBus = await LogindSessionLock(.init(systemBusAddress: "unix:path=\(bus.directory)/missing", markScope: UUID().uuidString)).state()
        #expect(noBus.condition == .unobserved)
        #expect(noBus.detail.hasPrefix("no session manager: cannot connect to the bus"))
        #expect(noBus.summary.hasPrefix("not observed, treated as unlocked"))
    }

    @Test("D14: unlocked since boot is false before the first unlock, then stays true through later locks")
    func unlockedSinceBoot() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        defer { forgetMarks(logind) }
        try await logind.addSession("2")
        try await logind.lock("2")
        let monitor = monitor(logind, session: "2")
        #expect(await !monitor.unlockedSinceBoot())
        #expect(await !monitor.state().unlockedSinceBoot)

        try await logind.unlock("2")
        #expect(await monitor.unlockedSinceBoot())
        try await logind.lock("2")
        let locked = await monitor.state()
        #expect(locked.isLocked)
        #expect(locked.unlockedSinceBoot)

        // Another process of the user (a second monitor on the same marks) knows it too.
        let again = LogindSessionLock(monitor.configuration)
        #expect(await again.unlockedSinceBoot())
        monitor.forgetMarks()
        #expect(await !again.unlockedSinceBoot())
        await again.recordOwnerAuthentication()
        #expect(await monitor.unlockedSinceBoot())
    }

    @Test("D14: the stream yields each change as logind signals it: lock, unlock, a lock request, sleep, logind leaving")
    func stream() async throws {
        let logind = try await FakeLogind.start()
        defer { logind.stop() }
        defer { forgetMarks(logind) }
        try await logind.addSession("2")
        let monitor = monitor(logind, session: "2")
        var states = monitor.states().makeAsyncIterator()
        #expect(await states.next()?.condition == .unlocked)

        try await logind.lock("2")
        #expect(await states.next()?.condition == .locked)
        // While a watcher runs, reads answer from what it saw.
        #expect(await monitor.state().condition == .locked)
        try await logind.unlock("2")
        #expect(await states.next()?.condition == .unlocked)

        // A locker that never sets the hint: logind's Lock signal alone locks until Unlock.
        try await logind.lock("2", setsHint: false)
        let requested = await states.next()
        #expect(requested?.condition == .locked)
        #expect(requested?.detail == "logind asked session 2 to lock")
        try await logind.unlock("2")
        #expect(await states.next()?.condition == .unlocked)

        try await logind.prepareForSleep(true)
        #expect(await states.next()?.condition == .goingToSleep)
        try await logind.prepareForSleep(false)
        #expect(await states.next()?.condition == .unlocked)

        logind.stopLogind()
        let gone = await states.next()
        #expect(gone?.condition == .unobserved)
        #expect(gone?.detail == "no session manager: logind left the system bus")
    }
}
