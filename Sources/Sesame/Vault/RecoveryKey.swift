/// A random 256-bit key that opens a vault when the device key and passcode
/// are lost, formatted for printing.
///
/// The printed form is 52 characters of Crockford base32 in groups of four,
/// e.g. `7K2M-…`; parsing ignores case, spaces and dashes and accepts the
/// letters people confuse (`O` for 0, `I`/`L` for 1). It is returned once, at
/// creation; Sesame keeps no copy.
public struct RecoveryKey: Sendable, CustomStringConvertible {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The key.
    public let secret: SecretBytes

    init(secret: SecretBytes) { self.secret = secret }

    /// Parses a printed recovery key.
    ///
    /// - Parameter printed: The key as printed; case, spaces and dashes do not matter.
    /// - Returns: `nil` when it is not a well-formed recovery key.
    public init?(_ printed: String) {
        var bits: UInt32 = 0
        var bitCount = 0
        var bytes: [UInt8] = []
        for character in printed.uppercased().utf8 {
            if character == UInt8(ascii: "-") || character == UInt8(ascii: " ") { continue }
            let normalized: UInt8 = switch character {
            case UInt8(ascii: "O"): UInt8(ascii: "0")
            case UInt8(ascii: "I"), UInt8(ascii: "L"): UInt8(ascii: "1")
            default: character
            }
            guard let value = Self.alphabet.firstIndex(of: normalized) else { return nil }
            bits = bits << 5 | UInt32(value)
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
            }
        }
        guard bytes.count == 32 else { return nil }
        secret = SecretBytes(bytes)
        wipe(&bytes)
    }

    /// The printable form. Show it once, to the owner, and do not log it.
    public var printable: String {
        var characters: [UInt8] = []
        secret.withUnsafeBytes { raw in
            var bits: UInt32 = 0
            var bitCount = 0
            for byte in raw {
                bits = bits << 8 | UInt32(byte)
                bitCount += 8
                while bitCount >= 5 {
                    bitCount -= 5
                    characters.append(Self.alphabet[Int(bits >> UInt32(bitCount) & 31)])
                }
            }
            if bitCount > 0 { characters.append(Self.alphabet[Int(bits << UInt32(5 - bitCount) & 31)]) }
        }
        var grouped = ""
        for (index, character) in characters.enumerated() {
            if index > 0 && index % 4 == 0 { grouped += "-" }
            grouped.unicodeScalars.append(Unicode.Scalar(character))
        }
        return grouped
    }

    /// Redacted, so that a recovery key never ends up in a log by accident.
    public var description: String { "RecoveryKey(redacted)" }
}
