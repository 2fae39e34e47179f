import Sesame
import Testing
import SesameSecretsInUse

/// dotenv files whose values may be references.
@Suite("EnvironmentFile")
struct EnvironmentFileParsingTests {
    @Test("Values: unquoted, double-quoted with escapes, single-quoted literal, references")
    func values() throws {
        let file = try EnvironmentFile(parsing: """
            # comment
              export A = sesame://s/a%2Fb # note
            B="x\\ty \\"q\\" sesame" # note
            C='sesame://s/c'
            D=sesame://s/d
            E=a#b
            F=
            """, path: "f")
        #expect(file.entries == [
            .init(variable: "A", value: .reference(SecretReference(service: "s", name: "a/b"))),
            .init(variable: "B", value: .literal("x\ty \"q\" sesame")),
            .init(variable: "C", value: .literal("sesame://s/c")),
            .init(variable: "D", value: .reference(SecretReference(service: "s", name: "d"))),
            .init(variable: "E", value: .literal("a#b")),
            .init(variable: "F", value: .literal("")),
        ])
    }

    @Test("Errors name FILE:LINE",
          arguments: [("A=1\nB", "f:2:"), ("\n\n9X=1", "f:3:"), ("A=1\nA=2", "f:2:"), ("A=\"x", "f:1:"), ("A='x'y", "f:1:"),
                      ("A=\"\\z\"", "f:1:"), ("A=sesame://x", "f:1:"), ("A=\u{0}", "f:1:"), ("A-B=1", "f:1:")])
    func errors(text: String, prefix: String) {
        #expect {
            try EnvironmentFile(parsing: text, path: "f")
        } throws: { error in
            (error as? EnvironmentFile.ParseError)?.description.hasPrefix(prefix) == true
        }
    }

    @Test("Variable names are what a shell reads as $NAME", arguments: [("_a1", true), ("A", true), ("1A", false), ("", false), ("é", false), ("A B", false)])
    func variableNames(name: String, valid: Bool) {
        #expect(EnvironmentFile.isVariableName(name) == valid)
    }
}
