#if os(Linux)
import CSesameLinux
import Foundation
import Sesame
import SesameTesting
import Testing
@testable import SesameLinux

/// The reuse window in the real kernel user keyring. Each test uses a key of
/// its own (a unique scope) and removes it, so tests can run in parallel.
@Suite("SPEC A6: the reuse window in the kernel keyring",
       .enabled(if: KernelKeyringReuseWindowStore.availability() == .available, "keyctl is blocked here (container?)"))
struct KeyringReuseCacheTests {
    let cache = KernelKeyringReuseWindowStore(appName: "sesame-tests", scope: UUID().uuidString)
    let domainState = DomainState(bytes: Array(repeating: 7, count: 32))

    /// The cache's line of /proc/keys, if the key exists.
    func procKeysLine() throws -> String? {
        // Read to the end: a single read of /proc/keys stops at a page, and the key may be further on.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/keys"))
        let keys = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return keys.split(separator: "\n").first { $0.contains(" \(cache.keyDescription): ") }.map(String.init)
    }

    /// The code an evaluation fails with, or nil when it succeeds.
    func failure(_ context: AuthenticationContext) async -> AuthenticationError.Code? {
        do {
            try await context.evaluate(.biometrics, localizedReason: "Testing")
            return nil
        } catch {
            return error.code
        }
    }

    @Test("SPEC A6: A recorded success is read back with its domain state and a small, non-negative age")
    func roundTrip() async throws {
        #expect(try await cache.lastSuccess() == nil)
        try await cache.recordSuccess(domainState: domainState)
        let entry = try #require(try await cache.lastSuccess())
        #expect(entry.domainState == domainState)
        #expect(entry.elapsed >= 0 && entry.elapsed < 10)
        try await cache.recordSuccess(domainState: nil)
        #expect(try await cache.lastSuccess()?.domainState == nil)
        try await cache.clear()
    }

    @Test("SPEC A6: The key is a user key in the user keyring, possessor/user only, with the kernel timeout set")
    func keyAttributes() async throws {
        try await cache.recordSuccess(domainState: domainState)
        let line = try #require(try procKeysLine())
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        // id, flags, usage, timeout, permissions, uid, gid, type, description
        #expect(fields[3] == "5m" || fields[3] == "4m")
        #expect(fields[4] == "2f2f0000")
        #expect(fields[5] == "\(getuid())")
        #expect(fields[7] == "user")
        try await cache.clear()
    }

    @Test("SPEC A6: clear() ends the window and is idempotent")
    func clear() async throws {
        try await cache.recordSuccess(domainState: domainState)
        try await cache.clear()
        #expect(try await cache.lastSuccess() == nil)
        try await cache.clear()
        #expect(try await cache.lastSuccess() == nil)
    }

    @Test("SPEC A6: A malformed token is an error, which evaluations treat as no reuse")
    func malformed() async throws {
        let junk: [UInt8] = Array("not a token".utf8)
        let key = junk.withUnsafeBytes { sesame_kernel_keyring_set(cache.keyDescription, $0.baseAddress, $0.count, 60) }
        #expect(key > 0)
        await #expect(throws: KernelKeyringError.self) { try await cache.lastSuccess() }

        let sensor = SimulatedSensor()
        let authenticators = Authenticators(appName: "Keyring Tests", sensor: sensor, reuseWindow: cache)
        let context = AuthenticationContext(authenticators)
        context.reuseDuration = 300
        context.interactionNotAllowed = true
        #expect(await failure(context) == .notInteractive)
        try await cache.clear()
    }

    @Test("SPEC A6: a match in one context is reused by a context with fresh attempts, until the reader's window ends")
    func expiryByReadersWindow() async throws {
        let sensor = SimulatedSensor()
        func context(reuse: Double) -> AuthenticationContext {
            // A fresh attempt record each time, as in a new process.
            let authenticators = Authenticators(appName: "Keyring Tests", sensor: sensor, presenter: RecordingPresenter(),
                                                attempts: InMemoryAttemptStore(), reuseWindow: cache)
            let context = AuthenticationContext(authenticators)
            context.reuseDuration = reuse
            return context
        }
        sensor.present(.match)
        try await context(reuse: 0).evaluate(.biometrics, localizedReason: "Testing")
        try await context(reuse: 60).evaluate(.biometrics, localizedReason: "Testing")
        #expect(sensor.scansStarted == 1)

        try await Task.sleep(for: .milliseconds(1_200))
        // Still kept by the kernel (300 s), but older than this reader's 1 s window.
        #expect(try await cache.lastSuccess() != nil)
        let strict = context(reuse: 1)
        strict.interactionNotAllowed = true
        #expect(await failure(strict) == .notInteractive)
        try await context(reuse: 60).evaluate(.biometrics, localizedReason: "Testing")
        #expect(sensor.scansStarted == 1)

        try await cache.clear()
        let afterClear = context(reuse: 60)
        afterClear.interactionNotAllowed = true
        #expect(await failure(afterClear) == .notInteractive)
    }

    @Test("SPEC A6: A token from the future (a clock gone back, or forged) gives a negative age, never reused")
    func futureToken() {
        let token = ReuseToken(bootTime: 10_000_000_000, domainState: nil)
        #expect(token.entry(now: 5_000_000_000).elapsed < 0)
        #expect(token.entry(now: 0).elapsed < 0)
        #expect(token.entry(now: 12_500_000_000).elapsed == 2.5)
        #expect(ReuseToken(decoding: token.encoded()[...]) == token)
        #expect(ReuseToken(decoding: [0x53, 0x52, 0x57, 0x31, 0, 0, 0, 0, 0, 0, 0, 0, 2][...]) == nil)
    }
}
#endif
