/// Why a HID report transport (`/dev/uhid`, the report socket) could not
/// start, in words that say what to do.
public struct HIDTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, and what to do about it.
    public let description: String

    /// - Parameter description: What went wrong, and what to do about it.
    public init(_ description: String) {
        self.description = description
    }
}
