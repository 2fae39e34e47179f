import Sesame

/// What the next presentation of a finger or face does on a ``SimulatedSensor``.
public enum SimulatedScan: Sendable, Hashable {
    /// An enrolled biometric: the scan matches.
    case match
    /// Someone else's biometric: the scan does not match.
    case noMatch
    /// A retry hint; the scan keeps waiting for the next scripted item.
    case hint(ScanHint)
    /// The sensor goes away mid-scan.
    case disconnect
    /// The sensor reports an error.
    case hardwareError(String)
    /// The platform's own prompt is cancelled by the user (Apple-style UI).
    case userCancel
    /// The platform's own prompt's fallback button is pressed (Apple-style UI).
    case userFallback
    /// The system takes the prompt away.
    case systemCancel
}
