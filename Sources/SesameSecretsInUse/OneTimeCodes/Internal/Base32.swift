import Sesame
/// RFC 4648 base32 (the alphabet `A–Z2–7`), as `otpauth://` secrets use it.
///
/// Hand-written because no dependency offers base32, and so the secret is
/// decoded from bytes to bytes without ever becoming a `String`.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Decodes `text`: letters in either case, padding optional but, when
    /// present, complete. Returns `nil` for any other character, a partial
    /// padding, or a length no encoding produces (1, 3 or 6 symbols past a
    /// multiple of 8). The caller wipes the result.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        var symbols = text[...]
        var padding = 0
        while symbols.last == UInt8(ascii: "=") {
            symbols.removeLast()
            padding += 1
        }
        if padding > 0, (symbols.count + padding) % 8 != 0 { return nil }
        guard [0, 2, 4, 5, 7].contains(symbols.count % 8) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(symbols.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = Self.value(of: symbol) else {
                buffer = 0
                return nil
            }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        buffer = 0
        return output
    }

    /// Encodes `bytes` in upper case without padding (the form authenticator
    /// apps show and Sesame stores).
    static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        buffer = 0
        return output
    }

    private static func value(of symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): symbol - UInt8(ascii: "2") + 26
        default: nil
        }
    }
}
