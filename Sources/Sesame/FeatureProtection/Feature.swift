/// A sensitive operation the owner may protect: "transfer", "settings",
/// "secure-chat" (SPEC B).
public struct Feature: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The feature's stable name, as stored.
    public let rawValue: String

    /// Names a feature.
    ///
    /// - Parameter rawValue: A stable name; changing it loses the stored flag.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }
}
