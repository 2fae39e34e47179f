/// A secret of a length ``SecretGenerator`` does not make: too short to be
/// hard to guess, or too long to be a password.
public struct SecretLengthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The length asked for.
    public let length: Int
    /// The lengths that are made (``SecretGenerator/lengthRange``).
    public let allowed: ClosedRange<Int>

    /// What was wrong, as a sentence.
    public var description: String {
        "a generated secret has \(allowed.lowerBound) to \(allowed.upperBound) characters (got \(length))"
    }
}
