/// An error of a ``DeviceKeyStore`` that says what it means for whoever
/// needs the key (``DeviceKeyFailure``); its description is the message the
/// vault reports.
public protocol DeviceKeyStoreError: Error, Sendable, CustomStringConvertible {
    /// What the failure means: ``DeviceKeyFailure/unreachable`` when the
    /// key cannot be had on this machine (another slot still opens the
    /// vault), ``DeviceKeyFailure/lockedOut(retryAfter:)`` during a lockout,
    /// and so on.
    var failure: DeviceKeyFailure { get }
}
