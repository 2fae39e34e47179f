/// An `LAError` as the seam reports it: the raw code (kept even when Sesame
/// does not know it) and the framework's message.
package struct LAFailure: Error, Sendable, Hashable {
    /// The `LAError.Code` raw value.
    package var rawCode: Int
    /// The framework's `localizedDescription`, for diagnostics.
    package var message: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - rawCode: The `LAError.Code` raw value.
    ///   - message: What the framework said.
    package init(rawCode: Int, message: String = "") {
        self.rawCode = rawCode
        self.message = message
    }

    /// Creates a failure for a known code.
    ///
    /// - Parameter code: The code.
    package init(_ code: LAErrorCode) {
        self.init(rawCode: code.rawValue)
    }

    /// The code, when it is one Sesame knows.
    package var code: LAErrorCode? { LAErrorCode(rawValue: rawCode) }
}
