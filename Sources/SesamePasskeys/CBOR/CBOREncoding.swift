/// CTAP2's canonical CBOR encoding (CTAP 2.1 §8): the shortest head for
/// every length and integer, definite lengths only, and map keys sorted by
/// major type, then the length of their encoding, then byte by byte, so that
/// what is signed or hashed by a client is the same bytes every time.
extension CBORValue {
    /// This item's canonical encoding.
    package var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let n): Self.head(0, n, into: &out)
        case .negative(let n): Self.head(1, n, into: &out)
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count), into: &out)
            out += bytes
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.head(3, UInt64(utf8.count), into: &out)
            out += utf8
        case .array(let array):
            Self.head(4, UInt64(array.count), into: &out)
            for element in array { element.encode(into: &out) }
        case .map(let map):
            Self.head(5, UInt64(map.count), into: &out)
            let entries = map.map { (key: $0.key.encoded, value: $0.value) }.sorted { a, b in
                let majorA = a.key[0] >> 5, majorB = b.key[0] >> 5
                if majorA != majorB { return majorA < majorB }
                return a.key.count != b.key.count ? a.key.count < b.key.count : a.key.lexicographicallyPrecedes(b.key)
            }
            for entry in entries {
                out += entry.key
                entry.value.encode(into: &out)
            }
        case .bool(let value): out.append(value ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        }
    }

    private static func head(_ major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24...0xFF: out += [type | 24, UInt8(value)]
        case 0x100...0xFFFF: out += [type | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
        case 0x1_0000...0xFFFF_FFFF:
            out.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
        default:
            out.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
        }
    }
}
