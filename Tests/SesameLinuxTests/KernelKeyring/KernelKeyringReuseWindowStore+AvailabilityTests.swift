#if os(Linux)
import Foundation
import Sesame
import SesameTesting
import Testing
@testable import SesameLinux

/// What ``KernelKeyringReuseWindowStore/availability()`` promises, checked by using the
/// keyring rather than by repeating the probe it is computed from: where it
/// says available, a window is kept, read back and removed; where keyctl is
/// blocked, it says why and no evaluation reuses a match. Each test has a key
/// of its own (a unique scope), so tests can run in parallel.
@Suite("The kernel keyring's availability")
struct KeyringAvailabilityTests {
    let cache = KernelKeyringReuseWindowStore(appName: "sesame-tests", scope: UUID().uuidString)
    let sensor = SimulatedSensor()
    /// Shared by every context of a test, as the attempt file is shared by
    /// every process: a window must not reach the next context through it.
    let attempts = InMemoryAttemptStore()
    let domainState = DomainState(bytes: Array(repeating: 9, count: 32))

    func context(_ store: any ReuseWindowStore, reuse: Double, interactive: Bool) -> AuthenticationContext {
        let authenticators = Authenticators(appName: "Keyring Tests", sensor: sensor, presenter: RecordingPresenter(),
                                            attempts: attempts, reuseWindow: store)
        let context = AuthenticationContext(authenticators)
        context.reuseDuration = reuse
        context.interactionNotAllowed = !interactive
        return context
    }

    /// The code a non-interactive evaluation fails with, or nil when it
    /// succeeds (which it can only do by reusing a match).
    func reuseFailure(_ store: any ReuseWindowStore) async -> AuthenticationError.Code? {
        do {
            try await context(store, reuse: AuthenticationContext.maximumReuseDuration, interactive: false)
                .evaluate(.biometrics, localizedReason: "Testing")
            return nil
        } catch {
            return error.code
        }
    }

    @Test("A6: Where it says available, a recorded window is read back with its enrolment and clear() removes it; where not, nothing is kept")
    func availableKeepsAWindow() async throws {
        switch KernelKeyringReuseWindowStore.availability() {
        case .available:
            try await cache.recordSuccess(domainState: domainState)
            let entry = try #require(try await cache.lastSuccess(), "available, yet the window just recorded is not there")
            #expect(entry.domainState == domainState)
            #expect(entry.elapsed >= 0 && entry.elapsed <= AuthenticationContext.maximumReuseDuration)
            try await cache.clear()
            #expect(try await cache.lastSuccess() == nil)
        case .notAvailable(let reason):
            #expect(!reason.isEmpty)
            await #expect(throws: KernelKeyringError.self) { try await cache.recordSuccess(domainState: domainState) }
            #expect(await reuseFailure(cache) == .notInteractive)
        }
    }

    @Test("A6: With keyctl blocked by seccomp, as in containers, it says why, and no evaluation reuses a match: not one kept before, nor its own")
    func blockedReusesNothing() async throws {
        // A window kept while the keyring works (where it does), and reused: the control.
        let keptBefore = KernelKeyringReuseWindowStore.availability() == .available
        if keptBefore {
            sensor.present(.match)
            try await context(cache, reuse: 0, interactive: true).evaluate(.biometrics, localizedReason: "Testing")
            #expect(await reuseFailure(cache) == nil, "the window is reused while the keyring works")
            #expect(sensor.scansStarted == 1)
        }

        let thread = try KeyctlBlockedExecutor()
        defer { thread.stop() }
        let blocked = KeyctlBlockedReuseWindow(cache: cache, thread: thread)
        guard case .notAvailable(let reason) = await thread.run({ KernelKeyringReuseWindowStore.availability() }) else {
            Issue.record("availability() says available with keyctl blocked")
            return
        }
        #expect(reason.contains("blocked"), "\(reason)")
        await #expect(throws: KernelKeyringError.self) { try await blocked.lastSuccess() }
        #expect(await reuseFailure(blocked) == .notInteractive, "a window kept before the keyring was blocked is reused")

        let scans = sensor.scansStarted
        sensor.present(.match)
        try await context(blocked, reuse: AuthenticationContext.maximumReuseDuration, interactive: true)
            .evaluate(.biometrics, localizedReason: "Testing")
        #expect(sensor.scansStarted == scans + 1, "the match was scanned, not reused")
        #expect(await reuseFailure(blocked) == .notInteractive, "a match made while the keyring is blocked is reused")

        if keptBefore {
            #expect(try await cache.lastSuccess() != nil, "the window kept before is still there for a process whose keyring works")
            try await cache.clear()
        }
    }
}
#endif
