import Foundation
import Sesame
import SesameTesting
import Testing

/// `--json` on every command that prints data, each one JSON
/// document on standard output that says the same as the plain output.
@Suite("--json on every command that prints data")
struct JSONOutputTests {
    private func object(_ result: SesameBinary.Result, _ what: String) throws -> [String: Any] {
        #expect(result.status == 0, "\(what): \(result.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: result.output)
        return try #require(parsed as? [String: Any], "\(what) printed \(result.stdout)")
    }

    private func base64(_ document: [String: Any], _ field: String) -> Data? {
        (document[field] as? String).flatMap { Data(base64Encoded: $0) }
    }

    @Test("key create, import, public, sign, encrypt, decrypt and agree")
    func keys() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()

        let created = try object(try await home.sesame(["key", "create", "s", "--algorithm", "ed25519", "--access", "none", "--json"]), "create")
        #expect(created["warning"] == nil)
        // No reader here: the key is made, and the document says its access cannot be given.
        let unusable = try object(try await home.sesame(["key", "create", "w", "--algorithm", "ed25519", "--access", "biometry-any", "--json"]),
                                  "create w")
        #expect((unusable["warning"] as? String)?.contains("no fingerprint") == true, "\(unusable)")
        let publicKey = try object(try await home.sesame(["key", "public", "s", "--json"]), "public")
        #expect(created["fingerprint"] as? String == publicKey["fingerprint"] as? String)
        #expect((publicKey["publicKey"] as? String)?.hasPrefix("ssh-ed25519 ") == true)
        #expect(publicKey["algorithm"] as? String == "ed25519" && publicKey["name"] as? String == "s")
        let plain = try await home.sesame(["key", "public", "s"])
        #expect(plain.stdout.trimmingCharacters(in: .newlines) == publicKey["publicKey"] as? String)

        let signed = try object(try await home.sesame(["key", "sign", "s", "--json"], stdin: Data("message".utf8)), "sign")
        #expect(base64(signed, "signature")?.count == 64)

        _ = try object(try await home.sesame(["key", "create", "kx", "--algorithm", "x25519", "--access", "none", "--json"]), "create kx")
        let encrypted = try object(try await home.sesame(["key", "encrypt", "kx", "--json"], stdin: Data("hello".utf8)), "encrypt")
        let ciphertext = try #require(base64(encrypted, "ciphertext"))
        let decrypted = try object(try await home.sesame(["key", "decrypt", "kx", "--json"], stdin: ciphertext), "decrypt")
        #expect(base64(decrypted, "plaintext") == Data("hello".utf8))

        let peer = home.file("peer.pem")
        let made = try await SesameBinary.run(["-c", #"openssl genpkey -algorithm X25519 | openssl pkey -pubout -out "$1""#, "sh", peer],
                                              environment: home.environment, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(made.status == 0, "\(made.stderr)")
        let agreedJSON = try object(try await home.sesame(["key", "agree", "kx", "--peer", peer, "--json"]), "agree")
        let agreed = try await home.sesame(["key", "agree", "kx", "--peer", peer])
        #expect(base64(agreedJSON, "sharedSecret") == agreed.output)
    }

    @Test("import reports as JSON (export's JSON runs against fprintd in ExportCommandTests); get and read give the value")
    func transferAndValues() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        try await home.put("token", Data("t0k".utf8))

        // An export made by the library on a simulated sensor: the command's own export needs the owner.
        let sensor = SimulatedSensor()
        let source = try await Vault.create(at: home.file("source/vault.sqlite"), slots: [.device()],
                                            authenticators: Authenticators(appName: "sesame tests", sensor: sensor)).vault
        try await source.items.add(SecretBytes(utf8: "other"), service: "sesame", account: "token")
        try await source.items.add(SecretBytes(utf8: "new"), service: "sesame", account: "fresh")
        sensor.present(.match)
        let report = try await source.export(passphrase: SecretBytes(utf8: "long export passphrase"), cost: .testing, operationPrompt: "Back up")
        let file = home.file("backup.sesame")
        try Data(report.file).write(to: URL(fileURLWithPath: file))

        let imported = try object(try await home.script(["import", file, "--passphrase-fd", "3", "--json"], secret: "long export passphrase"),
                                  "import")
        #expect(imported["transferred"] as? Int == 1)
        #expect((imported["kept"] as? [[String: Any]])?.map { $0["name"] as? String } == ["token"])
        #expect((imported["skipped"] as? [Any])?.isEmpty == true)

        let refused = try await home.script(["export", "-", "--json", "--passphrase-fd", "3"], secret: "long export passphrase")
        #expect(refused.status == 2, "the report and the export cannot share standard output")

        let got = try object(try await home.sesame(["get", "token", "--json"]), "get")
        let read = try object(try await home.sesame(["read", "sesame://sesame/fresh", "--json"]), "read")
        #expect(got["value"] as? String == "t0k" && read["value"] as? String == "new")
    }
}
