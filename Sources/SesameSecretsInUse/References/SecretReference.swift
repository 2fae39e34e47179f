import Sesame
/// A reference to a vault item, `sesame://SERVICE/NAME`, for places where a
/// secret is named rather than written: env files, templates, configuration.
///
/// The service and the name are percent-encoded (RFC 3986): every byte of
/// their UTF-8 other than the unreserved `A–Z a–z 0–9 - . _ ~` may be
/// written `%XX`, and these must be: `%`, `/`, `?`, `#`, `{`, `}`, space,
/// quotes, control characters and anything outside ASCII. So
/// `sesame://deploy/aws%2Fprod%20key` names the item `aws/prod key` of the
/// service `deploy`; ``description`` writes that form back. Nothing else is
/// accepted (no query, no fragment, no user or port), so that a reference
/// means exactly one item and a typo is an error rather than another item.
public struct SecretReference: Sendable, Hashable, CustomStringConvertible {
    /// The item's service.
    public var service: String
    /// The item's name (its account within the service).
    public var name: String

    /// The scheme's prefix, `sesame://`.
    public static let prefix = "sesame://"

    /// Why a text is not a reference.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the part (never more than the text given).
        public var description: String
    }

    /// A reference to `name` in `service`.
    ///
    /// - Parameters:
    ///   - service: The item's service; not empty.
    ///   - name: The item's name; not empty.
    public init(service: String, name: String) {
        self.service = service
        self.name = name
    }

    /// Parses `sesame://SERVICE/NAME`.
    ///
    /// - Parameter text: The whole reference, nothing around it.
    /// - Throws: ``ParseError`` when the scheme is not `sesame://`, a part is
    ///   empty, a character must be percent-encoded and is not, a `%` is not
    ///   followed by two hex digits, or the decoded bytes are not UTF-8.
    public init(parsing text: String) throws(ParseError) {
        guard text.hasPrefix(Self.prefix) else {
            throw ParseError(description: "a reference starts with \(Self.prefix)")
        }
        let rest = text.utf8.dropFirst(Self.prefix.utf8.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else {
            throw ParseError(description: "\(text): expected \(Self.prefix)SERVICE/NAME")
        }
        service = try Self.decode(rest[..<slash], part: "SERVICE", in: text)
        name = try Self.decode(rest[rest.index(after: slash)...], part: "NAME", in: text)
    }

    /// `sesame://SERVICE/NAME`, each part percent-encoded as needed.
    public var description: String {
        Self.prefix + Self.encode(service) + "/" + Self.encode(name)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool { PercentEncoding.isUnreserved(byte) }

    private static func encode(_ part: String) -> String {
        PercentEncoding.encode(part, keeping: isUnreserved)
    }

    private static func decode(_ encoded: Substring.UTF8View.SubSequence, part: String, in text: String) throws(ParseError) -> String {
        guard !encoded.isEmpty else { throw ParseError(description: "\(text): \(part) is empty") }
        var bytes: [UInt8] = []
        var index = encoded.startIndex
        while index != encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "%") {
                let high = encoded.index(after: index)
                guard high != encoded.endIndex, encoded.index(after: high) != encoded.endIndex,
                      let upper = PercentEncoding.hexValue(encoded[high]), let lower = PercentEncoding.hexValue(encoded[encoded.index(after: high)])
                else { throw ParseError(description: "\(text): a % in \(part) must be followed by two hex digits") }
                bytes.append(upper << 4 | lower)
                index = encoded.index(high, offsetBy: 2)
            } else if isUnreserved(byte) {
                bytes.append(byte)
                index = encoded.index(after: index)
            } else {
                throw ParseError(description: "\(text): \(part) must percent-encode every character but letters, digits and - . _ ~")
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw ParseError(description: "\(text): \(part) is not UTF-8 once decoded")
        }
        return decoded
    }
}
