/// Why an authenticator cannot be used right now, in words a user can act on.
///
/// `kind` is stable and meant for code; `detail` is for people ("fprintd is
/// not running", "libsystemd.so.0 could not be loaded").
public struct UnavailableReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable category of the reason.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// No sensor is attached, or no backend is configured.
        case noSensor
        /// A system library the backend loads at run time is missing.
        case libraryMissing
        /// The system message bus cannot be reached.
        case noSystemBus
        /// The daemon that owns the sensor is not running.
        case serviceNotRunning
        /// The system's authorisation service (polkit) refused.
        case permissionDenied
        /// Another process holds the sensor.
        case deviceBusy
        /// The sensor went away during use.
        case disconnected
        /// The sensor or its driver reported an error.
        case hardwareError
        /// The device passcode (PAM) is not configured.
        case notConfigured
        /// Sesame's own attempt records could not be read or written.
        case stateUnavailable
        /// This platform has no such authenticator.
        case unsupportedPlatform
        /// No prompt reaches the person who asked (no terminal of theirs in
        /// the foreground, no display): nobody could be asked, which is not
        /// a Cancel.
        case nobodyToAsk
        /// The owner's session locked, or the machine began to sleep, while
        /// the prompt showed (SPEC D14): the system took the prompt away.
        case sessionLocked
    }

    /// The stable category.
    public let kind: Kind
    /// A human-readable explanation.
    public let detail: String

    /// Creates a reason.
    ///
    /// - Parameters:
    ///   - kind: The stable category.
    ///   - detail: What a user should read, e.g. "fprintd is not running".
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }
}
