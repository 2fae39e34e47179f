import Sesame
import Testing
import SesameSecretsInUse

/// `{{ sesame://… }}` placeholders, and everything else left alone.
@Suite("SecretTemplate")
struct SecretTemplateTests {
    private func parse(_ text: String) throws -> SecretTemplate {
        try SecretTemplate(parsing: Array(text.utf8), source: "t")
    }

    @Test("Placeholders with or without spaces; other braces, lone braces and non-UTF-8 bytes are text")
    func segments() throws {
        let bytes: [UInt8] = Array("a {{sesame://s/x}} {{ b }} {{  sesame://s/y%20z\n}} }} {".utf8) + [0xff]
        let template = try SecretTemplate(parsing: bytes, source: "t")
        #expect(template.references == [SecretReference(service: "s", name: "x"), SecretReference(service: "s", name: "y z")])
        let rendered = template.render([SecretReference(service: "s", name: "x"): SecretBytes(utf8: "1"),
                                        SecretReference(service: "s", name: "y z"): SecretBytes([0x00, 0x02])])
        #expect(rendered == Array("a 1 {{ b }} ".utf8) + [0x00, 0x02] + Array(" }} {".utf8) + [0xff])
    }

    @Test("A template without placeholders renders to itself")
    func identity() throws {
        let text = "plain {{ text }} and {{ } {{"
        #expect(try parse(text).render([:]) == Array(text.utf8))
        #expect(try parse("").segments.isEmpty)
    }

    @Test("Broken placeholders name their line and column",
          arguments: [("x\n  {{ sesame://s/a", "t:2:3"), ("{{ sesame://s/a }", "t:1:1"), ("ok\n\n{{ sesame://s }}", "t:3:4"),
                      ("{{ sesame://s/a b }}", "t:1:1"), ("{{sesame://s/%zz}}", "t:1:3")])
    func broken(text: String, position: String) {
        #expect {
            try parse(text)
        } throws: { error in
            (error as? SecretTemplate.ParseError)?.description.hasPrefix(position + ":") == true
        }
    }
}
