/// Decoding CBOR from a client, who may be anyone (SPEC P5): bounded depth,
/// lengths checked against what is left before anything is allocated, no
/// recursion deeper than `maximumDepth`, and one error for each fault.
extension CBORValue {
    /// How deep arrays and maps may nest. CTAP 2.1 §8 asks authenticators
    /// for at least 4; a request nests at most 5 (request, extensions,
    /// hmac-secret, its key-agreement key, a COSE field), so 8 refuses
    /// nothing real and bounds the stack.
    package static let maximumDepth = 8

    /// The one item `bytes` holds.
    ///
    /// - Throws: ``CBORError``.
    package init(decoding bytes: some Collection<UInt8>) throws(CBORError) {
        var reader = Reader(bytes: Array(bytes))
        self = try reader.item(depth: 0)
        guard reader.offset == reader.bytes.count else { throw .trailingBytes }
    }

    /// The first item of `bytes`, and how many bytes it took: CTAP's
    /// attestation object and the authenticator data's extensions are
    /// followed by other bytes.
    ///
    /// - Throws: ``CBORError``.
    package static func decodePrefix(_ bytes: some Collection<UInt8>) throws(CBORError) -> (value: CBORValue, length: Int) {
        var reader = Reader(bytes: Array(bytes))
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(CBORError) -> UInt8 {
            guard offset < bytes.count else { throw .truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: UInt64) throws(CBORError) -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.count - offset) else { throw .truncated }
            let end = offset + Int(count)
            defer { offset = end }
            return bytes[offset..<end]
        }

        mutating func argument(_ info: UInt8, initial: UInt8) throws(CBORError) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                var value: UInt64 = 0
                for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
                return value
            default: throw .unsupported(initial)
            }
        }

        /// A count of elements: each takes at least one byte, so a count
        /// beyond what is left is refused before any array is reserved.
        mutating func count(_ info: UInt8, initial: UInt8, perElement: UInt64) throws(CBORError) -> Int {
            let count = try argument(info, initial: initial)
            guard count <= UInt64(bytes.count - offset) / perElement else { throw .lengthTooLarge }
            return Int(count)
        }

        mutating func item(depth: Int) throws(CBORError) -> CBORValue {
            let initial = try byte()
            let major = initial >> 5, info = initial & 0x1F
            switch major {
            case 0: return .unsigned(try argument(info, initial: initial))
            case 1: return .negative(try argument(info, initial: initial))
            case 2: return .bytes(Array(try take(try argument(info, initial: initial))))
            case 3:
                let utf8 = try take(try argument(info, initial: initial))
                guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidUTF8 }
                return .text(text)
            case 4:
                guard depth < CBORValue.maximumDepth else { throw .tooDeep }
                let count = try count(info, initial: initial, perElement: 1)
                var array: [CBORValue] = []
                array.reserveCapacity(count)
                for _ in 0..<count { array.append(try item(depth: depth + 1)) }
                return .array(array)
            case 5:
                guard depth < CBORValue.maximumDepth else { throw .tooDeep }
                let count = try count(info, initial: initial, perElement: 2)
                var map: [CBORValue: CBORValue] = [:]
                map.reserveCapacity(count)
                for _ in 0..<count {
                    let key = try item(depth: depth + 1)
                    let value = try item(depth: depth + 1)
                    guard map.updateValue(value, forKey: key) == nil else { throw .duplicateKey }
                }
                return .map(map)
            case 7:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw .unsupported(initial)
                }
            default: throw .unsupported(initial)  // 6: tags
            }
        }
    }
}
