/// A message shown on the prompt while it is up.
public enum PromptMessage: Sendable, Hashable, CustomStringConvertible {
    /// A retry hint from the sensor; does not count as a failure.
    case hint(ScanHint)
    /// A scan did not match.
    case notRecognized(attemptsLeft: Int)
    /// The fallback button is now offered (after the first failed match, SPEC A1).
    case fallbackOffered(title: String)
    /// A passcode was wrong.
    case wrongPasscode(attemptsLeft: Int)
    /// Information from a backend (PAM's `PAM_TEXT_INFO`).
    case info(String)
    /// An error from a backend (PAM's `PAM_ERROR_MSG`).
    case error(String)

    /// The text to show.
    public var text: String {
        switch self {
        case .hint(let hint): hint.message
        case .notRecognized(let left): "Not recognised. \(left) attempt\(left == 1 ? "" : "s") left."
        case .fallbackOffered(let title): "Or choose “\(title)”."
        case .wrongPasscode(let left): "Wrong passcode. \(left) attempt\(left == 1 ? "" : "s") left."
        case .info(let text), .error(let text): text
        }
    }

    public var description: String { text }
}
