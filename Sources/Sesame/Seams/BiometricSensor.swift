/// A biometric sensor: fprintd on Linux, LocalAuthentication on Apple
/// platforms, `SimulatedSensor` (SesameTesting) in tests.
///
/// The sensor only answers "did this finger/face match an enrolled one?".
/// Attempt counting, lockout (SPEC A4), the reuse window (SPEC A6) and the
/// prompt are Sesame's job, in ``AuthenticationContext``, so that every
/// backend behaves the same. A sensor that keeps a lockout of its own reports
/// it through ``BiometricSensorState/Availability-swift.enum/lockedOut``.
public protocol BiometricSensor: Sendable {
    /// What the sensor can do now. Never prompts, never claims the device.
    ///
    /// - Returns: Availability, biometry type and the enrolment's domain state.
    func currentState() async -> BiometricSensorState

    /// Claims the sensor for one evaluation (fprintd: a D-Bus connection and a
    /// `Claim`). The caller always releases the claim, also on error and cancellation.
    ///
    /// - Returns: A claim that can take scans until ``BiometricClaim/release()``.
    /// - Throws: ``BiometricSensorError`` when the sensor cannot be claimed
    ///   (busy, gone, not enrolled, locked out).
    func claim() async throws(BiometricSensorError) -> any BiometricClaim

    /// Tells the sensor that the device passcode just succeeded, so a sensor
    /// with its own lockout may lift it (SPEC A4). The default does nothing.
    func devicePasscodeDidAuthenticate() async

    /// A first element once the watch is in place, then one each time the
    /// sensor's state may have changed (a finger enrolled, the reader or its
    /// service gone or back), as the backend reports it: never polled.
    /// ``AuthenticationEnvironment`` reads ``currentState()`` only after the
    /// first (so a change made at once is not missed) and again at each
    /// later one. The default reports nothing and ends at once: a backend
    /// without change notices is read again only when another part of the
    /// environment changes.
    ///
    /// - Returns: The notices; the sequence ends when the caller stops iterating.
    func stateChanges() -> AsyncStream<Void>
}

extension BiometricSensor {
    public func devicePasscodeDidAuthenticate() async {}

    public func stateChanges() -> AsyncStream<Void> {
        AsyncStream { $0.finish() }
    }
}
