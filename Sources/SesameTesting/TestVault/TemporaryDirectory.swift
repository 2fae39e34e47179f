import Foundation

/// A private directory (mode 0700, from `mkdtemp`) removed with everything in
/// it when the value is released: a place for a test's vault or files.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Makes a new directory under the system's temporary directory.
    ///
    /// - Throws: `CocoaError(.fileWriteUnknown)` when it cannot be made.
    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/sesame-tests-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
