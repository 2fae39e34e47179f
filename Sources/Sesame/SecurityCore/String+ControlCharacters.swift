/// Text that came from outside (an item's name, an import file, a client's
/// request) shown to a person with its control characters escaped (SPEC D9):
/// a name cannot move the cursor, clear the screen, retitle the window or
/// write the clipboard (OSC 52) of the terminal that prints it.
extension String {
    /// This text with every control character spelled out: C0 as `\t`, `\n`,
    /// `\r`, `\e` (ESC) or `\x01`; DEL as `\x7f`; C1 (such as CSI, U+009B) and
    /// the bidirectional overrides as `\u{9b}`. Everything else is unchanged.
    ///
    /// - Parameter keepingLineBreaks: Keep `\n` as it is, for messages of
    ///   several lines (every other control character is still escaped).
    /// - Returns: The text, safe to print on a terminal.
    public func escapingControlCharacters(keepingLineBreaks: Bool = false) -> String {
        guard containsControlCharacters else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if keepingLineBreaks, scalar == "\n" {
                escaped.unicodeScalars.append(scalar)
            } else if let spelled = Self.escape(scalar) {
                escaped += spelled
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether the text holds a character ``escapingControlCharacters(keepingLineBreaks:)``
    /// escapes: such a name is refused where a name is made.
    public var containsControlCharacters: Bool {
        unicodeScalars.contains { Self.escape($0) != nil }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x07: "\\a"
        case 0x08: "\\b"
        case 0x09: "\\t"
        case 0x0A: "\\n"
        case 0x0B: "\\v"
        case 0x0C: "\\f"
        case 0x0D: "\\r"
        case 0x1B: "\\e"
        case 0x00...0x1F, 0x7F: "\\x" + hex(scalar.value, width: 2)
        // C1, and the overrides that reorder what follows on the line.
        case 0x80...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: "\\u{" + hex(scalar.value, width: 0) + "}"
        default: nil
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
