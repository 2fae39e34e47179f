import Sesame
/// RFC 3986 percent-encoding, shared by `sesame://` references, the names of
/// git credentials and `otpauth://` URIs.
enum PercentEncoding {
    /// RFC 3986's unreserved bytes, which never need encoding.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// `text` with every byte of its UTF-8 that `keeps` refuses written
    /// `%XX`, upper-case hex (the one spelling encoders produce).
    static func encode(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if keeps(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of one hex digit of a `%XX` escape.
    ///
    /// - Parameter lowercase: Whether `a`–`f` count; formats with one
    ///   spelling per value accept upper case only.
    static func hexValue(_ byte: UInt8, lowercase: Bool = true) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f") where lowercase: byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
