#if os(Linux)
import Glibc
import Sesame

/// The owner's session lock as logind tells it (SPEC D14): the session's
/// `LockedHint`, which the desktop's screen locker sets, its `Lock` and
/// `Unlock` signals, and the manager's `PrepareForSleep`.
///
/// ```swift
/// var authenticators = machine.authenticators
/// authenticators.sessionLock = LogindSessionLock(.init(environment: ProcessInfo.processInfo.environment))
/// ```
///
/// ``LinuxMachine`` sets one up by itself. The owner's session is the
/// caller's own (`XDG_SESSION_ID`), else the user's display session, else
/// the first of the user's sessions.
///
/// - One-shot reads (``state()``) cost a connection to the system bus and
///   three calls (the caller's session, its `LockedHint`, `PreparingForSleep`); where the standard system bus socket does not exist they
///   cost one `stat` and answer `unobserved`.
/// - While a ``states()`` sequence is iterated (a daemon watching for
///   locks), ``state()`` answers from the latest value it saw: logind's
///   signals keep it current, and nothing is asked per read.
/// - "Unlocked since boot" and "a lock was seen" are kept as marks in the
///   kernel user keyring, which a reboot empties, so `afterFirstUnlock…`
///   items cost no D-Bus call once the owner has unlocked.
///
/// Never prompts. Where no system bus or no logind answers, the state is
/// `unobserved` (treated as unlocked, and said so); where logind answers
/// with an error, the state is locked (fail closed).
public struct LogindSessionLock: SessionLockMonitor {
    /// What this monitor asks.
    public let configuration: Configuration
    let marks: SessionMarks
    let cache: LogindStateCache

    /// Creates a monitor; nothing is asked until a state is needed.
    ///
    /// - Parameter configuration: Where logind is and whose session to watch.
    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
        marks = SessionMarks(scope: configuration.markScope)
        cache = LogindStateCache()
    }

    public func state() async -> SessionLockState {
        if let current = cache.current { return current }
        return await read()
    }

    public func unlockedSinceBoot() async -> Bool {
        if marks.has(.unlocked) { return true }
        return await state().unlockedSinceBoot
    }

    /// Marks the owner unlocked since boot, where a session manager could
    /// be there to ask: with no system bus the state is unobserved and
    /// counts as unlocked anyway, so no key is left in the keyring.
    public func recordOwnerAuthentication() async {
        guard unreachable() == nil, !Self.socketIsMissing(configuration.systemBusAddress) else { return }
        marks.set(.unlocked)
    }

    public func states() -> AsyncStream<SessionLockState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionLockState.self, bufferingPolicy: .bufferingNewest(16))
        let watch = LogindWatch(configuration: configuration, marks: marks, cache: cache, continuation: continuation)
        continuation.onTermination = { _ in watch.stop() }
        if let unobserved = unreachable() {
            continuation.yield(unobserved)
            continuation.finish()
        } else if !DedicatedThread.detach(name: LogindBus.threadName, { watch.run() }) {
            continuation.yield(SessionLockState(.unobserved, detail: "no session manager: could not start a thread to watch logind"))
            continuation.finish()
        }
        return stream
    }

    /// Whether a screen lock was seen (the session's `LockedHint` on) since
    /// boot, by any Sesame process of the user: a locker that never sets the
    /// hint leaves `whenUnlocked…` items readable while the screen is locked,
    /// and `sesame doctor` says so. Never asks logind.
    ///
    /// - Returns: `true` once a lock was seen.
    public func lockSeenSinceBoot() -> Bool {
        marks.has(.lockSeen)
    }

    /// Forgets the marks kept until reboot, so that `afterFirstUnlock…`
    /// items wait for the next unlock or owner authentication. Never asks logind.
    public func forgetMarks() {
        marks.clear()
    }

    /// Asks logind once, on a thread of its own.
    private func read() async -> SessionLockState {
        if let unobserved = unreachable() { return unobserved }
        let configuration = configuration
        let facts: LogindFacts
        do throws(DBusError) {
            facts = try await DBusClient.withConnection(address: configuration.systemBusAddress, name: LogindBus.threadName) {
                client throws(DBusError) in
                let timeout = configuration.timeoutMicroseconds
                var facts = LogindFacts()
                let owner = try LogindBus.ownerSession(client, sessionID: configuration.sessionID, uid: configuration.uid, timeout: timeout)
                facts.session = owner?.0
                facts.lockedHint = owner?.locked ?? false
                facts.sleeping = LogindBus.preparingForSleep(client, timeout: timeout)
                return facts
            }
        } catch {
            facts = LogindFacts(failure: LogindFacts.failure(error))
        }
        return facts.state(uid: configuration.uid, marks: marks)
    }

    /// Whether `address` is a `unix:path=` whose socket does not exist.
    private static func socketIsMissing(_ address: String?) -> Bool {
        guard let address, address.hasPrefix("unix:path="), !address.contains(",") else { return false }
        var status = stat()
        return stat(String(address.dropFirst("unix:path=".count)), &status) != 0
    }

    /// The state where the system bus cannot exist: its standard socket is
    /// missing and no other address was given (here or in the environment).
    private func unreachable() -> SessionLockState? {
        guard configuration.systemBusAddress == nil, getenv("DBUS_SYSTEM_BUS_ADDRESS") == nil else { return nil }
        var status = stat()
        guard stat(Configuration.standardSystemBusSocket, &status) != 0 else { return nil }
        return SessionLockState(.unobserved, detail: "no session manager: the system bus is not running "
            + "(\(Configuration.standardSystemBusSocket) does not exist)")
    }
}
#endif
