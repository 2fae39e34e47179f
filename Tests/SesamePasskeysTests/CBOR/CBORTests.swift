@testable import SesamePasskeys
import Testing

/// The codec against RFC 8949's Appendix A examples and CTAP 2.1 §8's
/// canonical form, and against the input an attacker would send (SPEC P5).
@Suite("CBOR: RFC 8949's examples, CTAP2's canonical form, hostile input refused")
struct CBORTests {
    private static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// RFC 8949 Appendix A, the items CTAP2 uses.
    static let examples: [(CBORValue, String)] = [
        (0, "00"), (1, "01"), (10, "0a"), (23, "17"), (24, "1818"), (25, "1819"), (100, "1864"), (1000, "1903e8"),
        (1_000_000, "1a000f4240"), (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"),
        (.unsigned(UInt64.max), "1bffffffffffffffff"), (.negative(UInt64.max), "3bffffffffffffffff"),
        (-1, "20"), (-10, "29"), (-100, "3863"), (-1000, "3903e7"),
        (false, "f4"), (true, "f5"), (.null, "f6"),
        (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"),
        ("", "60"), ("a", "6161"), ("IETF", "6449455446"), ("\"\\", "62225c"), ("\u{00fc}", "62c3bc"), ("\u{6c34}", "63e6b0b4"),
        (.array([]), "80"), (.array([1, 2, 3]), "83010203"), (.array([1, .array([2, 3]), .array([4, 5])]), "8301820203820405"),
        (.array((1...25).map { .int($0) }), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        (.map([:]), "a0"), (.map([1: 2, 3: 4]), "a201020304"), (.map(["a": 1, "b": .array([2, 3])]), "a26161016162820203"),
        (.map(["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"]), "a56161614161626142616361436164614461656145"),
    ]

    @Test("SPEC P5: each RFC 8949 example encodes to its bytes and decodes back", arguments: 0..<Self.examples.count)
    func rfcExamples(_ index: Int) throws {
        let (value, hex) = Self.examples[index]
        #expect(value.encoded == Self.hex(hex))
        #expect(try CBORValue(decoding: Self.hex(hex)) == value)
    }

    @Test("SPEC P5: map keys are written in CTAP2's canonical order (major type, then shorter encoding, then bytewise), whatever the dictionary's")
    func canonicalOrder() {
        // The order CTAP 2.1 §8 gives: unsigned, negative, bytes, text, simple.
        let map: CBORValue = .map([.bytes([0]): 1, "aa": 2, -1: 3, "z": 4, 100: 5, 10: 6, .bool(false): 7])
        let keys = Self.hex("0a") + Self.hex("1864") + Self.hex("20") + Self.hex("4100") + Self.hex("617a") + Self.hex("626161") + Self.hex("f4")
        let encoded = map.encoded
        var order: [UInt8] = []
        var rest = Array(encoded.dropFirst())
        while !rest.isEmpty {
            let key = try! CBORValue.decodePrefix(rest)
            order += rest.prefix(key.length)
            rest = Array(rest.dropFirst(key.length))
            let value = try! CBORValue.decodePrefix(rest)
            rest = Array(rest.dropFirst(value.length))
        }
        #expect(order == keys)
    }

    @Test("SPEC P5: tags, floats, undefined, indefinite lengths, reserved values, bad UTF-8, duplicate keys, trailing bytes and truncation are refused by name",
          arguments: [
              ("c11a514b67b0", CBORError.unsupported(0xC1)), ("f93c00", .unsupported(0xF9)), ("fb3ff199999999999a", .unsupported(0xFB)),
              ("f7", .unsupported(0xF7)), ("5f42010243030405ff", .unsupported(0x5F)), ("9fff", .unsupported(0x9F)), ("bf616101ff", .unsupported(0xBF)),
              ("1c", .unsupported(0x1C)), ("62c328", .invalidUTF8), ("a201020103", .duplicateKey), ("0000", .trailingBytes),
              ("1903", .truncated), ("4401", .truncated), ("", .truncated), ("9b00000000ffffffff", .lengthTooLarge), ("a2", .lengthTooLarge),
          ])
    func refusals(_ hex: String, _ error: CBORError) {
        #expect(throws: error) { try CBORValue(decoding: Self.hex(hex)) }
    }

    @Test("SPEC P5: nesting deeper than the limit is refused before the stack grows; the limit itself decodes")
    func depth() throws {
        let atLimit = [UInt8](repeating: 0x81, count: CBORValue.maximumDepth) + [0x00]
        #expect(throws: Never.self) { try CBORValue(decoding: atLimit) }
        #expect(throws: CBORError.tooDeep) { try CBORValue(decoding: [UInt8](repeating: 0x81, count: 100_000) + [0x00]) }
        let maps = Array([[UInt8]](repeating: [0xA1, 0x00], count: CBORValue.maximumDepth + 1).joined()) + [0x00]
        #expect(throws: CBORError.tooDeep) { try CBORValue(decoding: maps) }
    }

    @Test("Integer keys and text keys are looked up through the subscripts; values out of Int's range are not Ints")
    func accessors() throws {
        let value = try CBORValue(decoding: Self.hex("a3016161626964f5206568656c6c6f"))
        #expect(value[1]?.textValue == "a")
        #expect(value["id"]?.boolValue == true)
        #expect(value[-1]?.textValue == "hello")
        #expect(CBORValue.unsigned(UInt64.max).intValue == nil)
        #expect(CBORValue.negative(UInt64(Int.max)).intValue == Int.min)
    }
}
