/// A minimal, unambiguous binary encoding for what Sesame authenticates and
/// stores: fixed-width big-endian integers and length-prefixed byte strings.
///
/// Length prefixes matter: without them ("ab","c") and ("a","bc") would
/// authenticate alike, and rows could be edited without detection.
package struct ByteWriter {
    package init() {}

    package private(set) var bytes: [UInt8] = []

    package mutating func u8(_ value: UInt8) { bytes.append(value) }

    package mutating func u32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    package mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    package mutating func raw(_ value: some Sequence<UInt8>) { bytes.append(contentsOf: value) }

    package mutating func field(_ value: some Collection<UInt8>) {
        u32(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    package mutating func field(_ value: String) { field(Array(value.utf8)) }
}

/// Reads what ``ByteWriter`` wrote; every read fails on short input instead
/// of trapping, because the input may be damaged.
package struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { offset == bytes.count }

    package mutating func u8() throws(ByteReaderError) -> UInt8 {
        guard offset < bytes.count else { throw ByteReaderError() }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func u32() throws(ByteReaderError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try u8()) }
        return value
    }

    package mutating func u64() throws(ByteReaderError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(try u8()) }
        return value
    }

    package mutating func raw(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw ByteReaderError() }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    package mutating func field() throws(ByteReaderError) -> [UInt8] {
        try raw(Int(try u32()))
    }

    package mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}

/// Input ended early or was malformed.
package struct ByteReaderError: Error {}
