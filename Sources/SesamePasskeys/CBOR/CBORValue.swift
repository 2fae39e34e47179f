/// One CBOR data item (RFC 8949) of the kinds CTAP2 exchanges: integers,
/// byte and text strings, arrays, maps, booleans and null.
///
/// CTAP2 forbids tags and indefinite lengths and has no use for floats, so
/// the decoder refuses them (SPEC P5: hostile input gets a clear error, never
/// a guess). Maps are dictionaries: a request with a key twice is refused,
/// and the encoder writes keys in CTAP2's canonical order whatever the
/// dictionary's.
package enum CBORValue: Sendable, Hashable {
    /// A non-negative integer (major type 0).
    case unsigned(UInt64)
    /// The negative integer −1 − n (major type 1), so the full range fits.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A UTF-8 text string (major type 3).
    case text(String)
    /// An array (major type 4).
    case array([CBORValue])
    /// A map (major type 5).
    case map([CBORValue: CBORValue])
    /// `true` or `false` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null

    /// The integer `value` as CBOR.
    package static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The integer, when it is one that fits an `Int`.
    package var intValue: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    /// The bytes of a byte string.
    package var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    /// The text of a text string.
    package var textValue: String? {
        if case .text(let text) = self { text } else { nil }
    }

    /// The elements of an array.
    package var arrayValue: [CBORValue]? {
        if case .array(let array) = self { array } else { nil }
    }

    /// The entries of a map.
    package var mapValue: [CBORValue: CBORValue]? {
        if case .map(let map) = self { map } else { nil }
    }

    /// The value of a boolean.
    package var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The entry of a map under the integer key `key` (CTAP2's parameter
    /// numbers), or `nil` when absent or when this is not a map.
    package subscript(key: Int) -> CBORValue? {
        mapValue?[.int(key)]
    }

    /// The entry of a map under the text key `key`.
    package subscript(key: String) -> CBORValue? {
        mapValue?[.text(key)]
    }
}

extension CBORValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(stringLiteral value: String) { self = .text(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}
