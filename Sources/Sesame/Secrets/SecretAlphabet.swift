/// The characters a generated secret is drawn from: printable ASCII, each
/// at most once, so every character is equally likely.
public struct SecretAlphabet: Sendable, Hashable {
    /// The characters, in the order given; distinct, printable ASCII.
    public let characters: [UInt8]

    /// An alphabet of the characters of `text`.
    ///
    /// - Parameter text: At least 2 distinct printable ASCII characters
    ///   (space to `~`); a repeated one would be drawn more often, so it is
    ///   refused rather than dropped.
    /// - Returns: `nil` for fewer than 2 characters, a repeated character, or
    ///   one outside printable ASCII.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, Set(bytes).count == bytes.count,
              bytes.allSatisfy({ (UInt8(ascii: " ")...UInt8(ascii: "~")).contains($0) })
        else { return nil }
        characters = bytes
    }

    /// `A–Z a–z 0–9` (62 characters, 5.95 bits each); the default.
    public static let alphanumeric = SecretAlphabet(uncheckedRanges: ["A"..."Z", "a"..."z", "0"..."9"])
    /// `A–Z a–z` (52 characters).
    public static let letters = SecretAlphabet(uncheckedRanges: ["A"..."Z", "a"..."z"])
    /// `0–9` (a PIN).
    public static let digits = SecretAlphabet(uncheckedRanges: ["0"..."9"])
    /// `0–9 a–f`.
    public static let hex = SecretAlphabet(uncheckedRanges: ["0"..."9", "a"..."f"])
    /// Every printable ASCII character except space (94 characters, 6.55 bits each).
    public static let printable = SecretAlphabet(uncheckedRanges: ["!"..."~"])

    /// The named alphabets, by the names the command line uses.
    public static let named: [(name: String, alphabet: SecretAlphabet)] = [
        ("alnum", .alphanumeric), ("alpha", .letters), ("digits", .digits), ("hex", .hex), ("printable", .printable),
    ]

    private init(uncheckedRanges ranges: [ClosedRange<Unicode.Scalar>]) {
        characters = ranges.flatMap { range in (range.lowerBound.value...range.upperBound.value).map { UInt8($0) } }
    }
}
