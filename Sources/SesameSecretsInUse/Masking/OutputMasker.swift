import Sesame

/// Replaces every occurrence of the injected secrets in a byte stream by
/// `<concealed by sesame>`, even when an occurrence is split across reads.
///
/// Bytes that could still become the start of a secret are held back until
/// the next read decides (or the end of the stream); nothing else is held, so
/// a prompt without a newline still shows, unless it ends with the first
/// characters of a secret. Longer secrets win over shorter ones that start
/// the same way.
///
/// What a command may do to a value on its way out is also covered where it
/// would otherwise print most of it:
/// - a multi-line value is also masked line by line: each line of
///   ``minimumConcealed`` bytes or more, without its indentation and its `\r`,
///   wherever it occurs (YAML's `|` block indents every line, CRLF ends them);
/// - at the end of the stream, a held-back beginning of a value of
///   ``minimumConcealed`` bytes or more is concealed, not printed (a command
///   that prints 15 of 16 bytes and exits).
///
/// Never prompts and keeps no copy past ``wipeAll()``: call it when the
/// stream ends, as `sesame run` does for its command's output.
public struct OutputMasker: Sendable {
    /// What replaces a value: `<concealed by sesame>`.
    public static let mask = Array("<concealed by sesame>".utf8)
    /// The fewest bytes of a line of a value, or of a cut-off beginning,
    /// that are concealed. Shorter pieces are too common in other output to
    /// conceal them without hiding what is not a secret.
    public static let minimumConcealed = 8

    /// Longest first: the values, then their lines.
    private var secrets: [[UInt8]]
    private var pending: [UInt8] = []

    /// A masker for `secrets`.
    ///
    /// - Parameter secrets: The values to conceal; empty ones are ignored.
    public init(secrets: [SecretBytes]) {
        var unique: [[UInt8]] = []
        func add(_ bytes: [UInt8]) {
            if !bytes.isEmpty, !unique.contains(bytes) { unique.append(bytes) }
        }
        for secret in secrets where !secret.isEmpty {
            var bytes = secret.withUnsafeBytes { Array($0) }
            add(bytes)
            for line in Self.lines(of: bytes) where line.count >= Self.minimumConcealed { add(Array(line)) }
            wipe(&bytes)
        }
        self.secrets = unique.sorted { $0.count > $1.count }
    }

    /// The lines of a multi-line value without the indentation and line-end
    /// whitespace a printer may change; none for a one-line value.
    private static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard bytes.contains(UInt8(ascii: "\n")) else { return [] }
        let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
        return bytes.split(separator: UInt8(ascii: "\n")).map { line in
            var line = line
            while let first = line.first, blank.contains(first) { line = line.dropFirst() }
            while let last = line.last, blank.contains(last) { line = line.dropLast() }
            return line
        }
    }

    /// What may be written now, given the next chunk of the stream.
    ///
    /// - Parameter chunk: The bytes just read.
    /// - Returns: The bytes to write: everything up to what could still
    ///   become the start of a value, with each value concealed.
    public mutating func feed(_ chunk: some Collection<UInt8>) -> [UInt8] {
        pending += chunk
        return drain(atEnd: false)
    }

    /// The rest, at the end of the stream.
    ///
    /// - Returns: What was held back, concealed when it is the beginning of
    ///   a value of ``minimumConcealed`` bytes or more.
    public mutating func finish() -> [UInt8] {
        drain(atEnd: true)
    }

    /// Wipes the copies of the secrets and what is held back.
    public mutating func wipeAll() {
        wipe(&pending)
        for index in secrets.indices { wipe(&secrets[index]) }
    }

    private mutating func drain(atEnd: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        scanning: while index < pending.count {
            let rest = pending[index...]
            if secrets.contains(where: { $0.count > rest.count && $0.starts(with: rest) }) {
                if !atEnd { break scanning }
                // The stream ended inside a value: its beginning is as secret as the rest.
                if rest.count >= Self.minimumConcealed {
                    output += Self.mask
                    index = pending.count
                    break scanning
                }
            }
            for secret in secrets where rest.starts(with: secret) {
                output += Self.mask
                index += secret.count
                continue scanning
            }
            output.append(pending[index])
            index += 1
        }
        var held = Array(pending[index...])
        swap(&held, &pending)
        wipe(&held)
        return output
    }
}
