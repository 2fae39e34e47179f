/// A reason to scan again that does not count as a failed match.
/// fprintd's `verify-retry-scan`, `verify-swipe-too-short`,
/// `verify-finger-not-centered` and `verify-remove-and-retry` map here.
public enum ScanHint: Sendable, Hashable, CustomStringConvertible {
    /// The scan was too poor to use.
    case retryScan
    /// A swipe sensor was swiped too quickly or too short.
    case swipeTooShort
    /// The finger was not centred on the sensor.
    case fingerNotCentered
    /// The finger should be lifted and placed again.
    case removeAndRetry
    /// A backend-specific hint, already in words for the user.
    case other(String)

    /// The message to show the user.
    public var message: String {
        switch self {
        case .retryScan: "The scan was not good enough. Try again."
        case .swipeTooShort: "The swipe was too short. Try again."
        case .fingerNotCentered: "Your finger was not centred on the sensor. Try again."
        case .removeAndRetry: "Lift your finger and place it on the sensor again."
        case .other(let text): text
        }
    }

    public var description: String { message }
}
