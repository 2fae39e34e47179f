import Sesame
/// A dotenv file, as `sesame run --env-file` reads it: `VAR=value` lines, where a value that
/// is a `sesame://` reference is replaced by the item's value.
///
/// The syntax is the common subset of dotenv implementations: blank lines
/// and lines starting with `#` are ignored; `export ` before a variable is
/// allowed; spaces around `=` are allowed. A value is
/// - unquoted: up to a ` #` comment, surrounding spaces removed;
/// - in double quotes: `\n`, `\t`, `\r`, `\"`, `\\` and `\$` are escapes;
/// - in single quotes: literal, never a reference (the way to pass the text
///   `sesame://…` itself).
/// `$VAR` is not expanded: a value is what the file says. A variable given
/// twice is an error, since which one wins would be a guess.
public struct EnvironmentFile: Sendable, Hashable {
    /// A variable's value.
    public enum Value: Sendable, Hashable {
        /// The text, as written (after unquoting).
        case literal(String)
        /// An item whose value the variable gets.
        case reference(SecretReference)
    }

    /// One `VAR=value` line.
    public struct Entry: Sendable, Hashable {
        /// The variable's name, `[A-Za-z_][A-Za-z0-9_]*`.
        public var variable: String
        /// Its value.
        public var value: Value

        /// An entry.
        ///
        /// - Parameters:
        ///   - variable: The variable's name.
        ///   - value: Its value.
        public init(variable: String, value: Value) {
            self.variable = variable
            self.value = value
        }
    }

    /// The file's entries, in order.
    public let entries: [Entry]

    /// What is wrong, as `FILE:LINE: why`.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `FILE:LINE: why`.
        public var description: String
    }

    /// Parses a file's text.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - path: What names the file in errors.
    /// - Throws: ``ParseError`` for a line that is not `VAR=value`, a bad
    ///   variable name, a variable given twice, an unclosed quote, text after
    ///   a closing quote, an unknown escape, a NUL byte, or a malformed reference.
    public init(parsing text: String, path: String) throws(ParseError) {
        var entries: [Entry] = []
        var seen: Set<String> = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            func fail(_ why: String) -> ParseError { ParseError(description: "\(path):\(number + 1): \(why)") }
            var line = Substring(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
            line = line.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count).drop { $0 == " " } }
            guard let equals = line.firstIndex(of: "=") else { throw fail("expected VAR=value") }
            let variable = String(line[..<equals].trimmingSuffix { $0 == " " || $0 == "\t" })
            guard Self.isVariableName(variable) else {
                throw fail("\"\(variable)\" is not a variable name (letters, digits and '_', not starting with a digit)")
            }
            guard seen.insert(variable).inserted else { throw fail("\(variable) is given twice") }
            let rest = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            let value = try Self.value(rest, fail: fail)
            if case .literal(let text) = value, text.utf8.contains(0) { throw fail("a value cannot hold a NUL byte") }
            entries.append(Entry(variable: variable, value: value))
        }
        self.entries = entries
    }

    /// Whether `name` can be a variable a shell script reads as `$name`:
    /// `[A-Za-z_][A-Za-z0-9_]*` (so that `=` or NUL cannot smuggle a second
    /// assignment in).
    ///
    /// - Parameter name: The candidate.
    /// - Returns: `true` when it can.
    public static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isLetter($0) || ("0"..."9").contains($0) }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func value(_ text: Substring, fail: (String) -> ParseError) throws(ParseError) -> Value {
        let raw: String
        var quoted: Character?
        if let first = text.first, first == "'" || first == "\"" {
            quoted = first
            var body = ""
            var index = text.index(after: text.startIndex)
            var closed = false
            while index < text.endIndex {
                let character = text[index]
                index = text.index(after: index)
                if character == first { closed = true; break }
                if first == "\"", character == "\\", index < text.endIndex {
                    let escaped = text[index]
                    index = text.index(after: index)
                    switch escaped {
                    case "n": body.append("\n")
                    case "t": body.append("\t")
                    case "r": body.append("\r")
                    case "\"", "\\", "$": body.append(escaped)
                    default: throw fail("unknown escape \\\(escaped) in a double-quoted value")
                    }
                } else {
                    body.append(character)
                }
            }
            guard closed else { throw fail("the value's \(first) is not closed on its line") }
            let after = text[index...].drop { $0 == " " || $0 == "\t" }
            guard after.isEmpty || after.hasPrefix("#") else { throw fail("text after the closing \(first)") }
            raw = body
        } else {
            // A comment starts at a # after a space, so `a#b` stays a value.
            var end = text.endIndex
            var previous: Character?
            for index in text.indices {
                if text[index] == "#", previous == " " || previous == "\t" { end = index; break }
                previous = text[index]
            }
            raw = String(text[..<end].trimmingSuffix { $0 == " " || $0 == "\t" })
        }
        guard quoted != "'", raw.hasPrefix(SecretReference.prefix) else { return .literal(raw) }
        do {
            return .reference(try SecretReference(parsing: raw))
        } catch {
            throw fail(error.description)
        }
    }
}

private extension Substring {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
