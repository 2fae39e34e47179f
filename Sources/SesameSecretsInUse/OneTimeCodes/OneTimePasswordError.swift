import Sesame
/// Why an `otpauth://` URI or a one-time password's parameters were refused.
///
/// The message names the parameter at fault and never contains the secret,
/// so it can be shown and logged.
public struct OneTimePasswordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why, in words; never contains the secret.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameter message: Why, in words; must not contain the secret.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
