#if os(Linux)
/// Why ``PinentryPresenter`` got no answer from pinentry (a person's Cancel
/// is not an error: it is `SecretEntry.cancelled`).
public enum PinentryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The program is missing, not executable, or could not be started.
    case notAvailable(String)
    /// The program broke the Assuan protocol: it ended, answered with
    /// something unexpected, or refused a command.
    case protocolFailure(String)

    /// A sentence for the log.
    public var description: String {
        switch self {
        case .notAvailable(let detail): "pinentry is not available: \(detail)"
        case .protocolFailure(let detail): "pinentry failed: \(detail)"
        }
    }
}
#endif
