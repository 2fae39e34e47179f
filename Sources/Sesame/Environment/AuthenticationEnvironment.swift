/// The machine's authentication state as something to watch: biometry
/// available, enrolled or locked out with its domain state, the device
/// passcode set, the owner's session locked or not. `LAEnvironment`'s role
/// on Apple platforms.
///
/// ```swift
/// let environment = AuthenticationEnvironment(authenticators)
/// for await state in environment.states() {
///     lockButton.isEnabled = state.biometry.isAvailable
/// }
/// ```
///
/// ``states()`` yields the state at once, then again whenever it changed:
/// it waits on the backends' own notices (the session manager's signals,
/// the sensor's ``BiometricSensor/stateChanges()``), never on a timer, and
/// reads every part afresh at each notice, so a change without a notice of
/// its own (a failed match that locks biometrics out in another process)
/// shows with the next notice. Never prompts.
public struct AuthenticationEnvironment: Sendable {
    /// The backends described.
    public let authenticators: Authenticators

    /// Creates the environment of `authenticators`.
    ///
    /// - Parameter authenticators: The sensor, passcode verifier, attempt
    ///   store and session monitor to describe.
    public init(_ authenticators: Authenticators) {
        self.authenticators = authenticators
    }

    /// The state now. Never prompts.
    ///
    /// - Returns: The state.
    public func current() async -> AuthenticationEnvironmentState {
        let context = AuthenticationContext(authenticators)
        let sensor = await authenticators.sensor?.currentState()
        var biometry = AuthenticationEnvironmentState.Biometry(
            isAvailable: true, isEnrolled: !(sensor?.enrolled.isEmpty ?? true), isLockedOut: false,
            biometryType: sensor?.biometryType ?? .none, domainState: sensor?.domainState, unavailableReason: nil,
            enrolled: sensor?.enrolled ?? [])
        do {
            try await context.canEvaluate(.biometrics)
        } catch {
            biometry.isAvailable = false
            biometry.isLockedOut = error.code == .biometryLockout
            if error.code == .biometryNotEnrolled { biometry.isEnrolled = false }
            biometry.unavailableReason = error.reason ?? UnavailableReason(.hardwareError, error.message)
        }
        var passcodeSet = false
        if let verifier = authenticators.devicePasscode, case .set = await verifier.currentState() { passcodeSet = true }
        let session = await authenticators.sessionLock?.state()
        return AuthenticationEnvironmentState(biometry: biometry, isDevicePasscodeSet: passcodeSet, session: session)
    }

    /// The state now, then each time it changed. Never prompts.
    ///
    /// - Returns: The states; the sequence ends when the caller stops
    ///   iterating (the watches on the backends end with it).
    public func states() -> AsyncStream<AuthenticationEnvironmentState> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthenticationEnvironmentState.self, bufferingPolicy: .bufferingNewest(16))
        let task = Task { await run(continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func run(_ continuation: AsyncStream<AuthenticationEnvironmentState>.Continuation) async {
        let (notices, notify) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // Each watch says when it listens (its first element, or its end):
        // the first state is read after that, so a change made at once is
        // in it or comes as a notice, never lost between the two.
        let (listening, listen) = AsyncStream.makeStream(of: Void.self)
        await withTaskGroup(of: Void.self) { group in
            var watches = 0
            if let monitor = authenticators.sessionLock {
                group.addTask { await Self.watch(monitor.states(), listen, notify) }
                watches += 1
            }
            if let sensor = authenticators.sensor {
                group.addTask { await Self.watch(sensor.stateChanges(), listen, notify) }
                watches += 1
            }
            group.addTask { [watches] in
                var ready = listening.makeAsyncIterator()
                for _ in 0..<watches { _ = await ready.next() }
                var last: AuthenticationEnvironmentState?
                let emit = { () async -> Void in
                    let state = await current()
                    guard state != last else { return }
                    last = state
                    continuation.yield(state)
                }
                await emit()
                for await _ in notices {
                    if Task.isCancelled { break }
                    await emit()
                }
            }
            // The watches end when the caller stops iterating (this task is
            // cancelled); the notices with them.
            await withTaskCancellationHandler {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            } onCancel: {
                notify.finish()
            }
            group.cancelAll()
        }
        continuation.finish()
    }

    /// Forwards a watch's elements after its first as notices; its first
    /// (or its end, for a watch with nothing to report) says it listens.
    private static func watch<Element: Sendable>(
        _ elements: AsyncStream<Element>, _ listen: AsyncStream<Void>.Continuation, _ notify: AsyncStream<Void>.Continuation
    ) async {
        var listened = false
        for await _ in elements {
            if listened { notify.yield() } else { listen.yield() }
            listened = true
        }
        if !listened { listen.yield() }
    }
}
