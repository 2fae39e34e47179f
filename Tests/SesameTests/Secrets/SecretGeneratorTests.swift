@testable import Sesame
import Testing

@Suite("Generated secrets: length, alphabet, uniform choice")
struct SecretGeneratorTests {
    static func text(_ secret: SecretBytes) -> String {
        secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test("The default is 32 alphanumeric characters; two are never alike")
    func defaults() throws {
        let one = try SecretGenerator.generate(), two = try SecretGenerator.generate()
        #expect(one.count == 32 && two.count == 32)
        #expect(Self.text(one).utf8.allSatisfy(SecretAlphabet.alphanumeric.characters.contains))
        #expect(!one.constantTimeEquals(two))
    }

    @Test("Every named alphabet holds what its name says, and only that")
    func namedAlphabets() {
        let expected: [String: String] = [
            "alnum": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            "alpha": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            "digits": "0123456789",
            "hex": "0123456789abcdef",
            "printable": String((33...126).map { Character(Unicode.Scalar(UInt8($0))) }),
        ]
        #expect(SecretAlphabet.named.count == expected.count)
        for (name, alphabet) in SecretAlphabet.named {
            #expect(String(decoding: alphabet.characters, as: UTF8.self) == expected[name], "\(name)")
        }
    }

    @Test("Lengths 8…1024 are made exactly, others refused; every character comes from the alphabet", arguments: [8, 33, 1024])
    func lengths(length: Int) throws {
        let alphabet = try #require(SecretAlphabet("xyz!"))
        let secret = try SecretGenerator.generate(length: length, alphabet: alphabet)
        #expect(secret.count == length)
        #expect(Self.text(secret).allSatisfy { "xyz!".contains($0) })
    }

    @Test("Lengths outside 8…1024 are refused", arguments: [-1, 0, 7, 1025])
    func badLengths(length: Int) {
        #expect(throws: SecretLengthError(length: length, allowed: SecretGenerator.lengthRange)) { try SecretGenerator.generate(length: length) }
    }

    @Test("A literal alphabet needs 2 or more different printable ASCII characters")
    func literalAlphabets() {
        #expect(SecretAlphabet("ab")?.characters == [97, 98])
        #expect(SecretAlphabet(" ~") != nil)
        for bad in ["", "a", "aba", "ab\n", "abé", "ab\u{7F}"] {
            #expect(SecretAlphabet(bad) == nil, "\(bad.debugDescription)")
        }
    }

    /// A fixed-seed generator (SplitMix64), so the count test below is
    /// reproducible rather than flaky.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("Characters are drawn uniformly: 3 characters over 300,000 draws, each within 1% of a third (chi-square below 13.8)")
    func uniform() throws {
        let alphabet = try #require(SecretAlphabet("abc"))
        var random = SplitMix(state: 42)
        var counts: [UInt8: Int] = [:]
        for _ in 0..<300 {
            let secret = try SecretGenerator.generate(length: 1000, alphabet: alphabet, using: &random)
            secret.withUnsafeBytes { for byte in $0 { counts[byte, default: 0] += 1 } }
        }
        let expected = 100_000.0
        let chiSquare = counts.values.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        #expect(counts.count == 3)
        #expect(counts.values.allSatisfy { abs(Double($0) - expected) < expected / 100 }, "\(counts)")
        #expect(chiSquare < 13.8, "p < 0.001 for 2 degrees of freedom: \(chiSquare)")
    }
}
