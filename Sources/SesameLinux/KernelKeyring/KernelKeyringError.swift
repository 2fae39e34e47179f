#if os(Linux)
import Glibc

/// A kernel keyring call that failed.
public struct KernelKeyringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call, e.g. `add_key` or `keyctl search`.
    public var operation: String
    /// The `errno` value, when the kernel gave one.
    public var code: Int32?
    /// What went wrong, in words.
    public var detail: String

    /// Creates an error from an `errno` value.
    ///
    /// - Parameters:
    ///   - operation: The call that failed.
    ///   - code: The `errno` value.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        detail = String(cString: strerror(code))
    }

    /// Creates an error without an `errno` value.
    ///
    /// - Parameters:
    ///   - operation: The call that failed.
    ///   - detail: What went wrong.
    public init(operation: String, detail: String) {
        self.operation = operation
        code = nil
        self.detail = detail
    }

    public var description: String { "\(operation): \(detail)" }
}
#endif
