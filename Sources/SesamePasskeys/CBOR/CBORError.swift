/// Why bytes are not a CBOR item this module accepts (SPEC P5). A request
/// that fails to decode is answered with `CTAP2_ERR_INVALID_CBOR`; none
/// crashes the authenticator.
package enum CBORError: Error, Sendable, Equatable {
    /// The input ended inside an item.
    case truncated
    /// Bytes followed the one item the input should hold.
    case trailingBytes
    /// A major type or additional information CTAP2 does not use: tags,
    /// floats, undefined and other simple values, indefinite lengths, and
    /// the reserved values 28–30.
    case unsupported(UInt8)
    /// A text string that is not valid UTF-8.
    case invalidUTF8
    /// The same key twice in one map.
    case duplicateKey
    /// Arrays and maps nested deeper than the decoder allows.
    case tooDeep
    /// A length larger than the input could hold.
    case lengthTooLarge
}
