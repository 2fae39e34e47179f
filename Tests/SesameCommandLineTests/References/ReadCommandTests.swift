import Foundation
import Testing

/// `sesame read sesame://SERVICE/NAME` and `get --json`: the value a
/// reference names, exactly, or as a JSON document.
@Suite("sesame read")
struct ReadCommandTests {
    @Test("A reference reads the item it names, percent-encoding included, byte for byte")
    func readsTheItem() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let value = Data([0x00, 0xff, 0x0a, 0x41])
        try await home.put("aws/prod key", value, arguments: ["--service", "deploy"])
        try await home.put("other", Data("not this".utf8), arguments: ["--service", "deploy"])

        let result = try await home.script(["read", "sesame://deploy/aws%2Fprod%20key"], secret: VaultHome.passcode)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == value)
    }

    @Test("--json gives the value as a string when it is UTF-8, in base64 otherwise (read and get)")
    func json() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await home.put("text", Data("héllo \"x\"".utf8))
        try await home.put("binary", Data([0xff, 0xfe, 0x00]))

        struct Document: Decodable { var service: String; var name: String; var reference: String; var value: String?; var valueBase64: String? }
        let text = try await home.script(["read", "sesame://sesame/text", "--json"], secret: VaultHome.passcode)
        #expect(text.status == 0, "\(text.stderr)")
        let textDocument = try JSONDecoder().decode(Document.self, from: text.output)
        #expect(textDocument.value == "héllo \"x\"" && textDocument.valueBase64 == nil)
        #expect(textDocument.reference == "sesame://sesame/text" && textDocument.service == "sesame" && textDocument.name == "text")

        let binary = try await home.script(["get", "binary", "--json"], secret: VaultHome.passcode)
        #expect(binary.status == 0, "\(binary.stderr)")
        let binaryDocument = try JSONDecoder().decode(Document.self, from: binary.output)
        #expect(binaryDocument.value == nil)
        #expect(binaryDocument.valueBase64.flatMap { Data(base64Encoded: $0) } == Data([0xff, 0xfe, 0x00]))
    }

    @Test("A missing item exits 3, in --json as an error document")
    func missing() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let plain = try await home.script(["read", "sesame://sesame/nope"], secret: VaultHome.passcode)
        #expect(plain.status == 3)
        #expect(plain.stderr.contains("no item nope in service sesame"))
        let json = try await home.script(["read", "sesame://sesame/nope", "--json"], secret: VaultHome.passcode)
        #expect(json.status == 3)
        #expect(json.stdout.contains(#""status" : "notFound""#))
    }

    @Test("A malformed reference is a usage error (2) that says what is wrong, before the vault is opened",
          arguments: ["sesame://deploy", "sesame://deploy/a/b", "sesame://deploy/a%zz", "deploy/a", "sesame://deploy/a b"])
    func malformed(reference: String) async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let result = try await home.sesame(["read", reference, "--no-interaction"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("sesame://"))
        #expect(!FileManager.default.fileExists(atPath: home.vault), "nothing was created")
    }
}
