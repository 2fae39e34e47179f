import Sesame
import SesameSecretsInUse
import Testing

/// `OutputMasker`, the streaming algorithm behind `sesame run`'s masking,
/// tested on its own: chunk boundaries anywhere, overlapping values, the
/// shapes a printer gives a multi-line value, and the end of the stream.
@Suite("OutputMasker: values concealed in a byte stream")
struct OutputMaskerTests {
    private static let mask = String(decoding: OutputMasker.mask, as: UTF8.self)

    /// Feeds `chunks` one by one, then finishes: what a reader would see.
    private func masked(_ chunks: [String], secrets: [String]) -> String {
        var masker = OutputMasker(secrets: secrets.map { SecretBytes(utf8: $0) })
        var output: [UInt8] = []
        for chunk in chunks { output += masker.feed(Array(chunk.utf8)) }
        output += masker.finish()
        masker.wipeAll()
        return String(decoding: output, as: UTF8.self)
    }

    @Test("A value is concealed wherever the stream is cut, and nothing else changes")
    func everyCut() {
        let text = "token=tok-1234567 and again tok-1234567.\n"
        let expected = "token=\(Self.mask) and again \(Self.mask).\n"
        for cut in 0...text.utf8.count {
            let bytes = Array(text.utf8)
            let chunks = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(masked(chunks, secrets: ["tok-1234567"]) == expected, "cut at \(cut)")
        }
        #expect(masked(["nothing secret here\n"], secrets: ["tok-1234567"]) == "nothing secret here\n")
    }

    @Test("Only what could still begin a value is held back; the rest is written at once")
    func holdsBackOnlyAPrefix() {
        var masker = OutputMasker(secrets: [SecretBytes(utf8: "tok-1234567")])
        #expect(masker.feed(Array("Password: tok".utf8)) == Array("Password: ".utf8))
        #expect(masker.feed(Array("en".utf8)) == Array("token".utf8), "no longer a beginning of the value")
        #expect(masker.finish().isEmpty)
    }

    @Test("The longer of two values that start alike wins; empty values are ignored")
    func longestFirst() {
        #expect(masked(["abcdefghijkl"], secrets: ["abcdefgh", "abcdefghijkl", ""]) == Self.mask)
        #expect(masked(["abcdefgh!"], secrets: ["abcdefgh", "abcdefghijkl"]) == Self.mask + "!")
    }

    @Test("A multi-line value is concealed line by line: indented as YAML's | block prints it, or with CRLF line ends")
    func multiLine() {
        let value = "first line of the key\nsecond line of the key"
        #expect(masked(["key: |\n  first line of the key\n  second line of the key\n"], secrets: [value])
                == "key: |\n  \(Self.mask)\n  \(Self.mask)\n")
        #expect(masked(["first line of the key\r\nsecond line of the key\r\n"], secrets: [value])
                == "\(Self.mask)\r\n\(Self.mask)\r\n")
        // A line shorter than minimumConcealed is too common to hide.
        #expect(masked(["short\n"], secrets: ["short\nsecond line of the key"]) == "short\n")
    }

    @Test("At the end of the stream a cut-off beginning of minimumConcealed bytes or more is concealed; a shorter one is printed")
    func cutOffAtTheEnd() {
        let value = "0123456789abcdef"
        #expect(masked(["x=", String(value.prefix(15))], secrets: [value]) == "x=" + Self.mask)
        #expect(masked(["x=", String(value.prefix(OutputMasker.minimumConcealed - 1))], secrets: [value]) == "x=0123456")
    }

    @Test("wipeAll drops what was held back")
    func wipeAll() {
        var masker = OutputMasker(secrets: [SecretBytes(utf8: "tok-1234567")])
        #expect(masker.feed(Array("tok-12".utf8)).isEmpty)
        masker.wipeAll()
        #expect(masker.finish().isEmpty)
    }
}
