import Sesame
/// A template with `{{ sesame://SERVICE/NAME }}` placeholders (spaces inside
/// the braces optional), as `sesame inject` fills in. A `{{` not followed by
/// `sesame://` is text, so other template languages' braces pass through.
public struct SecretTemplate: Sendable, Hashable {
    /// A piece of the template.
    public enum Segment: Sendable, Hashable {
        /// Bytes copied as they are.
        case text([UInt8])
        /// A placeholder, replaced by the item's value.
        case reference(SecretReference)
    }

    /// The template, in order.
    public let segments: [Segment]

    /// Why a template cannot be used, with its line and column.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `SOURCE:LINE:COLUMN: why`.
        public var description: String
    }

    /// The placeholders' references, in order, repeats included.
    public var references: [SecretReference] {
        segments.compactMap { if case .reference(let reference) = $0 { reference } else { nil } }
    }

    /// Parses a template.
    ///
    /// - Parameters:
    ///   - bytes: The template; any bytes (only the placeholders must be ASCII).
    ///   - source: What names the template in errors, e.g. its path.
    /// - Throws: ``ParseError`` when a `{{ sesame://` placeholder is not
    ///   closed by `}}` or its reference is malformed.
    public init(parsing bytes: [UInt8], source: String) throws(ParseError) {
        let prefix = Array(SecretReference.prefix.utf8)
        var segments: [Segment] = []
        var text: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") else {
                text.append(bytes[index])
                index += 1
                continue
            }
            var cursor = Self.skipSpaces(bytes, from: index + 2)
            guard bytes[cursor...].starts(with: prefix) else {
                text += [UInt8(ascii: "{"), UInt8(ascii: "{")]
                index += 2
                continue
            }
            let start = cursor
            while cursor < bytes.count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: "}") { cursor += 1 }
            let end = cursor
            cursor = Self.skipSpaces(bytes, from: cursor)
            guard cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "}"), bytes[cursor + 1] == UInt8(ascii: "}") else {
                throw ParseError(description: "\(source):\(Self.position(of: index, in: bytes)): a {{ sesame://… placeholder is not closed by }}")
            }
            let reference: SecretReference
            do {
                reference = try SecretReference(parsing: String(decoding: bytes[start..<end], as: UTF8.self))
            } catch {
                throw ParseError(description: "\(source):\(Self.position(of: start, in: bytes)): \(error)")
            }
            if !text.isEmpty { segments.append(.text(text)) }
            text = []
            segments.append(.reference(reference))
            index = cursor + 2
        }
        if !text.isEmpty { segments.append(.text(text)) }
        self.segments = segments
    }

    /// The template with every placeholder replaced by its value.
    ///
    /// - Parameter values: A value for every reference; a missing one renders as nothing.
    /// - Returns: The rendered bytes, allocated once; the caller wipes them once written.
    public func render(_ values: [SecretReference: SecretBytes]) -> [UInt8] {
        var output: [UInt8] = []
        // One allocation: a growing array would leave copies of the values
        // behind in memory it freed, where no wipe reaches them.
        output.reserveCapacity(segments.reduce(0) { total, segment in
            switch segment {
            case .text(let bytes): total + bytes.count
            case .reference(let reference): total + (values[reference]?.count ?? 0)
            }
        })
        for segment in segments {
            switch segment {
            case .text(let bytes):
                output += bytes
            case .reference(let reference):
                values[reference]?.withUnsafeBytes { output += $0 }
            }
        }
        return output
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// `line:column`, both from 1, for error messages.
    private static func position(of index: Int, in bytes: [UInt8]) -> String {
        let before = bytes[..<index]
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return "\(line):\(index - lineStart + 1)"
    }
}
