/// A claim of the sensor (fprintd: `Claim` … `Release`), able to take
/// scans until it is released.
public protocol BiometricClaim: Sendable {
    /// Waits for one presentation of a finger or face and reports whether it matched.
    ///
    /// Hints such as "finger not centred" do not end the scan: pass each to
    /// `hint` and keep waiting. Cancelling the calling task must stop the scan
    /// on the device (fprintd: `VerifyStop`) and throw
    /// ``BiometricSensorError/cancelled``.
    ///
    /// - Parameter hint: Receives retry hints for the user, in order.
    /// - Returns: ``ScanResult/match`` or ``ScanResult/noMatch``.
    /// - Throws: ``BiometricSensorError`` when the scan could not complete.
    func scan(hint: @escaping @Sendable (ScanHint) async -> Void) async throws(BiometricSensorError) -> ScanResult

    /// Releases the sensor. Idempotent; never throws, since it runs on every
    /// exit path.
    func release() async
}

/// The outcome of one completed scan.
public enum ScanResult: String, Sendable, Hashable {
    /// The biometric matched an enrolled one.
    case match
    /// The biometric did not match; counts toward SPEC A4.
    case noMatch
}
