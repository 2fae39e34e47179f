/// Makes random secrets (passwords, tokens) from the system's CSPRNG.
public enum SecretGenerator {
    /// The lengths accepted: fewer than 8 characters is guessable, and more
    /// than 1024 is no longer a password.
    public static let lengthRange = 8...1024

    /// The length used when none is asked for: 32 alphanumeric characters
    /// carry about 190 bits.
    public static let defaultLength = 32

    /// A secret of `length` characters, each drawn uniformly and
    /// independently from `alphabet` with the system's CSPRNG
    /// (`getrandom(2)` on Linux). Never prompts.
    ///
    /// - Parameters:
    ///   - length: How many characters; within ``lengthRange``.
    ///   - alphabet: What they are drawn from; alphanumeric by default.
    /// - Returns: The secret, wiped when released.
    /// - Throws: ``SecretLengthError`` for a length outside ``lengthRange``.
    public static func generate(length: Int = defaultLength, alphabet: SecretAlphabet = .alphanumeric) throws(SecretLengthError) -> SecretBytes {
        var random = SystemRandomNumberGenerator()
        return try generate(length: length, alphabet: alphabet, using: &random)
    }

    /// ``generate(length:alphabet:)`` with another source of randomness, for tests.
    static func generate(
        length: Int, alphabet: SecretAlphabet, using random: inout some RandomNumberGenerator
    ) throws(SecretLengthError) -> SecretBytes {
        guard lengthRange.contains(length) else { throw SecretLengthError(length: length, allowed: lengthRange) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        defer { wipe(&bytes) }
        // `random(in:using:)` is the standard library's unbiased bounded draw
        // (it rejects the values that would make `%` favour low indices).
        for _ in 0..<length {
            bytes.append(alphabet.characters[Int.random(in: 0..<alphabet.characters.count, using: &random)])
        }
        return SecretBytes(bytes)
    }
}
