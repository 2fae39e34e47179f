/// Why the Secret Service could not start: the bus, or another provider
/// owning `org.freedesktop.secrets` (named with its pid and executable).
public struct SecretServiceServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// For people; outside text in it is escaped.
    public var message: String

    /// - Parameter message: What went wrong.
    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
