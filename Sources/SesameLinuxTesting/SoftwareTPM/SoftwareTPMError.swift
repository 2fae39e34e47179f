/// Why a ``SoftwareTPM`` could not be started or driven.
public struct SoftwareTPMError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with swtpm's or the tool's output where there is one.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameter message: What went wrong.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { "SoftwareTPM: \(message)" }
}
