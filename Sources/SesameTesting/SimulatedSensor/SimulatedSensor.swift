import Crypto
import Sesame

/// A deterministic, scriptable fingerprint or face sensor for tests, like the
/// iOS Simulator's biometrics menu.
///
/// Enrol and unenrol to change the `DomainState`; queue what the
/// next scans do with ``present(_:)``; lock it out, unplug it, or make it
/// busy. A scan with nothing queued waits, as a real sensor waits for a
/// finger, until something is presented or the scan is cancelled.
///
/// Enrolments exist only in memory; nothing is written anywhere.
///
/// ```swift
/// let sensor = SimulatedSensor(enrolled: ["right-index-finger"])
/// sensor.present(.noMatch, .match)
/// ```
public final class SimulatedSensor: BiometricSensor {
    struct State {
        var biometryType: BiometryType
        var enrolled: Set<String>
        /// Bumped on every enrolment change, so re-enrolling a name changes
        /// the domain state as it does on iOS.
        var generation: UInt64 = 0
        var lockedOut = false
        var unplugged = false
        var busy = false
        var activeClaims = 0
        var claimsMade = 0
        var scansStarted = 0
        var scansCancelled = 0
    }

    let state: Locked<State>
    let scans = Mailbox<ScanEvent>()
    /// The watchers of ``stateChanges()``, told of every change from the menu.
    private let watchers = Locked([Int: AsyncStream<Void>.Continuation]())
    private let nextWatcher = Locked(0)
    private let identity: String

    enum ScanEvent: Sendable {
        case scripted(SimulatedScan)
        /// Wakes a waiting scan after unplug().
        case unplugged
    }

    /// Creates a sensor.
    ///
    /// - Parameters:
    ///   - biometryType: `.fingerprint` or `.face`; `.none` makes a machine
    ///     without a sensor.
    ///   - enrolled: Names of enrolled biometrics.
    ///   - identity: The sensor's identity, folded into the domain state.
    public init(biometryType: BiometryType = .fingerprint, enrolled: Set<String> = ["right-index-finger"], identity: String = "simulated-sensor") {
        state = Locked(State(biometryType: biometryType, enrolled: enrolled))
        self.identity = identity
    }

    // MARK: The menu

    /// Enrols a biometric; the domain state changes.
    ///
    /// - Parameter name: E.g. "left-thumb".
    public func enrol(_ name: String) {
        defer { noticeChange() }
        state.withLock { state in
            state.enrolled.insert(name)
            state.generation += 1
        }
    }

    /// Removes an enrolled biometric; the domain state changes.
    ///
    /// - Parameter name: The enrolled name.
    public func unenrol(_ name: String) {
        defer { noticeChange() }
        state.withLock { state in
            if state.enrolled.remove(name) != nil { state.generation += 1 }
        }
    }

    /// Removes every enrolled biometric.
    public func unenrolAll() {
        defer { noticeChange() }
        state.withLock { state in
            state.enrolled.removeAll()
            state.generation += 1
        }
    }

    /// Queues what the next scans do, in order.
    ///
    /// - Parameter outcomes: One item per presentation; hints do not end a scan.
    public func present(_ outcomes: SimulatedScan...) {
        for outcome in outcomes { scans.post(.scripted(outcome)) }
    }

    /// Sets the sensor's own lockout, as Apple's sensor keeps one. Sesame's
    /// lockout after five failures is separate and lives in its attempt store.
    ///
    /// - Parameter lockedOut: Whether the sensor refuses to scan.
    public func setLockedOut(_ lockedOut: Bool) {
        defer { noticeChange() }
        state.withLock { $0.lockedOut = lockedOut }
    }

    /// Unplugs the sensor; a scan in progress fails with "disconnected".
    public func unplug() {
        defer { noticeChange() }
        let waiting = state.withLock { state in
            state.unplugged = true
            return state.activeClaims > 0
        }
        if waiting { scans.post(.unplugged) }
    }

    /// Plugs the sensor back in.
    public func plugIn() {
        defer { noticeChange() }
        state.withLock { $0.unplugged = false }
        scans.removeAll()
    }

    /// Makes the sensor claimed by "another process".
    ///
    /// - Parameter busy: Whether claims fail with "device busy".
    public func setBusy(_ busy: Bool) {
        state.withLock { $0.busy = busy }
    }

    /// A first notice at once (the watch is in place), then one for each
    /// change made through the menu (enrolment, lockout, unplugging), as
    /// fprintd's signals are for `AuthenticationEnvironment`.
    public func stateChanges() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextWatcher.withLock { next in
            defer { next += 1 }
            return next
        }
        watchers.withLock { $0[id] = continuation }
        continuation.onTermination = { [watchers] _ in _ = watchers.withLock { $0.removeValue(forKey: id) } }
        continuation.yield()
        return stream
    }

    private func noticeChange() {
        for watcher in watchers.withLock({ Array($0.values) }) { watcher.yield() }
    }

    // MARK: Observations

    /// Claims made and not yet released; 0 means nothing leaked.
    public var activeClaims: Int { state.withLock { $0.activeClaims } }
    /// Claims made since creation.
    public var claimsMade: Int { state.withLock { $0.claimsMade } }
    /// Scans started since creation (a prompt-free reuse starts none).
    public var scansStarted: Int { state.withLock { $0.scansStarted } }
    /// Scans that were stopped by cancellation.
    public var scansCancelled: Int { state.withLock { $0.scansCancelled } }
    /// Whether the sensor's own lockout is on.
    public var isLockedOut: Bool { state.withLock { $0.lockedOut } }

    /// Waits until a scan is waiting for a finger.
    public func waitUntilScanning() async {
        while !scans.isWaiting {
            if Task.isCancelled { return }
            await Task.yield()
        }
    }

    // MARK: BiometricSensor

    public func currentState() async -> BiometricSensorState {
        state.withLock { state in
            guard state.biometryType != .none else {
                return .unavailable(UnavailableReason(.noSensor, "This machine has no biometric sensor"))
            }
            guard !state.unplugged else {
                return .unavailable(UnavailableReason(.noSensor, "The simulated sensor is unplugged"))
            }
            let availability: BiometricSensorState.Availability =
                state.enrolled.isEmpty ? .notEnrolled : state.lockedOut ? .lockedOut : .ready
            return BiometricSensorState(
                availability: availability,
                biometryType: state.biometryType,
                domainState: domainState(state),
                deviceName: "Simulated \(state.biometryType) sensor",
                enrolled: state.enrolled.sorted()
            )
        }
    }

    public func claim() async throws(BiometricSensorError) -> any BiometricClaim {
        try state.withLock { state throws(BiometricSensorError) in
            if state.biometryType == .none || state.unplugged {
                throw .unavailable(UnavailableReason(.noSensor, "The simulated sensor is unplugged"))
            }
            if state.busy { throw .unavailable(UnavailableReason(.deviceBusy, "The sensor is in use by another program")) }
            if state.enrolled.isEmpty { throw .notEnrolled }
            if state.lockedOut { throw .lockedOut }
            state.activeClaims += 1
            state.claimsMade += 1
        }
        return SimulatedClaim(sensor: self)
    }

    public func devicePasscodeDidAuthenticate() async {
        state.withLock { $0.lockedOut = false }
    }

    private func domainState(_ state: State) -> DomainState {
        var hash = SHA256()
        for part in [identity, String(state.generation)] + state.enrolled.sorted() {
            hash.update(data: Array(String(part.utf8.count).utf8) + [0] + Array(part.utf8))
        }
        return DomainState(bytes: Array(hash.finalize()))
    }
}
