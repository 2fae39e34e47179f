/// Why an ``FprintdHarness`` operation failed.
public struct FprintdHarnessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with the relevant log or output where there is one.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameter message: What went wrong.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { "FprintdHarness: \(message)" }
}
