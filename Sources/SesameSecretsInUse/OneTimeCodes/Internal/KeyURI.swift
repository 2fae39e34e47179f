import Sesame
/// The parts of an `otpauth://` URI (Google's Key Uri Format:
/// `otpauth://TYPE/LABEL?secret=…&issuer=…&algorithm=…&digits=…&period=…&counter=…`).
///
/// Split and percent-decoded on bytes rather than with `URLComponents`, so
/// the secret goes from the caller's wiped buffer to a wiped array and never
/// into a `String`, which cannot be wiped.
struct KeyURI {
    /// `totp` or `hotp`, lower-cased.
    var type: String
    /// The decoded label (`Issuer:account` by convention), possibly empty.
    var label: String
    /// The decoded `secret=` value; the caller wipes it.
    var secret: [UInt8]?
    /// Every other parameter, by lower-cased name, decoded.
    var parameters: [String: String]

    /// Splits `text`, trimmed of surrounding white space.
    ///
    /// - Throws: ``OneTimePasswordError`` naming the part at fault: not an
    ///   `otpauth://` URI, a character a URI cannot hold, a bad `%` escape,
    ///   a parameter without a value or given twice.
    static func parse(_ text: UnsafeRawBufferPointer) throws(OneTimePasswordError) -> KeyURI {
        var start = text.startIndex, end = text.endIndex
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        let uri = UnsafeRawBufferPointer(rebasing: text[start..<end])
        let scheme = Array("otpauth://".utf8)
        guard uri.count > scheme.count, zip(uri.prefix(scheme.count), scheme).allSatisfy({ lower($0) == $1 }) else {
            throw OneTimePasswordError("not an otpauth:// URI (it must start with otpauth://totp/ or otpauth://hotp/)")
        }
        // Control characters, spaces and non-ASCII bytes are never part of a
        // URI; refusing them also keeps a pasted second line out.
        if let bad = uri.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw OneTimePasswordError("the URI holds a character no URI may contain (byte \(bad + 1)); percent-encode it")
        }
        let rest = uri[(uri.startIndex + scheme.count)...]
        if rest.contains(UInt8(ascii: "#")) { throw OneTimePasswordError("an otpauth:// URI has no #fragment") }
        let queryStart = rest.firstIndex(of: UInt8(ascii: "?")) ?? rest.endIndex
        let path = rest[..<queryStart]
        let slash = path.firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
        let type = String(decoding: path[..<slash].map(lower), as: UTF8.self)
        let labelBytes = slash < path.endIndex ? try percentDecode(path[(slash + 1)...], what: "the label") : []
        guard let label = String(validating: labelBytes, as: UTF8.self) else {
            throw OneTimePasswordError("the label is not UTF-8")
        }
        var parsed = KeyURI(type: type, label: label, secret: nil, parameters: [:])
        guard queryStart < rest.endIndex else { return parsed }
        do {
            for pair in rest[(queryStart + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                try parsed.add(pair)
            }
        } catch {
            parsed.wipe()
            throw error
        }
        return parsed
    }

    /// Adds one `name=value` pair of the query.
    private mutating func add(_ pair: Slice<UnsafeRawBufferPointer>) throws(OneTimePasswordError) {
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
            // Not named: the pair may be a secret whose `secret=` was lost.
            throw OneTimePasswordError("a parameter has no value (name=value expected)")
        }
        let name = String(decoding: try Self.percentDecode(pair[..<equals], what: "a parameter name").map(Self.lower), as: UTF8.self)
        guard parameters[name] == nil, !(name == "secret" && secret != nil) else {
            throw OneTimePasswordError("the parameter \(name) is given twice")
        }
        if name == "secret" {
            secret = try Self.percentDecode(pair[(equals + 1)...], what: "the secret")
            return
        }
        let value = try Self.percentDecode(pair[(equals + 1)...], what: "the parameter \(name)")
        guard let text = String(validating: value, as: UTF8.self) else {
            throw OneTimePasswordError("the parameter \(name) is not UTF-8")
        }
        parameters[name] = text
    }

    /// Overwrites the decoded secret.
    mutating func wipe() {
        if secret != nil { Sesame.wipe(&secret!) }
    }

    /// `%XX`-encodes every byte outside RFC 3986's unreserved set and `keep`.
    static func percentEncode(_ bytes: some Sequence<UInt8>, keeping keep: String = "") -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        let kept = Set(keep.utf8)
        var output: [UInt8] = []
        for byte in bytes {
            let unreserved = switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
            default: kept.contains(byte)
            }
            if unreserved {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return output
    }

    private static func percentDecode(_ bytes: Slice<UnsafeRawBufferPointer>, what: String) throws(OneTimePasswordError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = PercentEncoding.hexValue(bytes[index + 1]), let low = PercentEncoding.hexValue(bytes[index + 2]) else {
                    Sesame.wipe(&output)
                    throw OneTimePasswordError("\(what) has a % not followed by two hexadecimal digits")
                }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }


    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
