import Sesame
import Testing
import SesameSecretsInUse

/// `sesame://SERVICE/NAME`: one text, one item, and back.
@Suite("SecretReference")
struct SecretReferenceTests {
    @Test("Plain references name the service and the item")
    func plain() throws {
        let reference = try SecretReference(parsing: "sesame://deploy/api-token")
        #expect(reference == SecretReference(service: "deploy", name: "api-token"))
        #expect(reference.description == "sesame://deploy/api-token")
    }

    @Test("Percent-encoding carries any UTF-8 name, and description writes it back",
          arguments: [
              ("sesame://deploy/aws%2Fprod%20key", "deploy", "aws/prod key"),
              ("sesame://my%20service/caf%C3%A9", "my service", "café"),
              ("sesame://a/%25%7B%7D%3F%23", "a", "%{}?#"),
              ("sesame://A.b_c~-/x", "A.b_c~-", "x"),
          ])
    func encoded(text: String, service: String, name: String) throws {
        let reference = try SecretReference(parsing: text)
        #expect(reference.service == service)
        #expect(reference.name == name)
        #expect(try SecretReference(parsing: reference.description) == reference)
    }

    @Test("Lower-case hex decodes too, and is written back in upper case")
    func lowerCaseHex() throws {
        let reference = try SecretReference(parsing: "sesame://s/a%2fb")
        #expect(reference.name == "a/b")
        #expect(reference.description == "sesame://s/a%2Fb")
    }

    @Test("Every name survives a round trip, whatever it holds",
          arguments: ["a b", "/", "%", "}}", "\n", "\u{0}", "🔑", "sesame://x/y", "a?b#c", " "])
    func roundTrip(name: String) throws {
        let reference = SecretReference(service: "svc/1", name: name)
        #expect(try SecretReference(parsing: reference.description) == reference)
        let encoded = reference.description.dropFirst(SecretReference.prefix.count)
        #expect(encoded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~%/".contains($0)) })
    }

    @Test("Anything that is not exactly one item is refused",
          arguments: [
              "", "sesame:", "sesame://", "sesame://deploy", "sesame://deploy/", "sesame:///name", "http://deploy/name",
              "SESAME://deploy/name", "sesame://deploy/a/b", "sesame://deploy/a b", "sesame://deploy/a%", "sesame://deploy/a%2",
              "sesame://deploy/a%zz", "sesame://deploy/%FF", "sesame://deploy/a?x=1", "sesame://deploy/a#f", "sesame://u@deploy/a",
              "sesame://deploy:22/a", "sesame://deploy/café", " sesame://deploy/a", "sesame://deploy/a }}",
          ])
    func refused(text: String) {
        #expect(throws: SecretReference.ParseError.self) { try SecretReference(parsing: text) }
    }
}
