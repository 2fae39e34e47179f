import Foundation
import Testing

/// `sesame key import`, `ls`, `rm` and the exit codes, with keys written by
/// OpenSSH and OpenSSL; and the rule that no command ever gives a private
/// key back (SPEC D7).
@Suite("sesame key: import, list, remove, exit codes; no private key ever comes out")
struct KeyImportCommandTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func sesame(_ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin)
    }

    private func tool(_ path: String, _ arguments: [String]) async throws -> SesameBinary.Result {
        let result = try await SesameBinary.run(arguments, environment: environment, executable: URL(fileURLWithPath: path))
        #expect(result.status == 0, "\(path) \(arguments): \(result.stderr)")
        return result
    }

    private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("SPEC D7: keys from ssh-keygen import, and `sesame key public` prints what `ssh-keygen -y` derives from the file", arguments: ["ed25519", "ecdsa"])
    func openSSH(type: String) async throws {
        defer { place.remove() }
        try await place.createVault()
        let file = place.file("id_\(type)")
        _ = try await tool("/usr/bin/ssh-keygen", ["-q", "-t", type, "-N", "", "-C", "me@host", "-f", file] + (type == "ecdsa" ? ["-b", "256"] : []))
        let imported = try await sesame(["key", "import", "ssh", "--access", "none"], stdin: try contents(file))
        #expect(imported.status == 0, "\(imported.stderr)")
        let derived = try await tool("/usr/bin/ssh-keygen", ["-y", "-f", file])
        #expect(imported.stdout == derived.stdout, "the comment comes along as the label")
        #expect(try await sesame(["key", "public", "ssh"]).stdout == derived.stdout)
        // A signature OpenSSH's own key verifies: the same key, inside the vault.
        let signed = try await sesame(["key", "sign", "ssh", "--format", type == "ecdsa" ? "der" : "raw"], stdin: Data("x".utf8))
        #expect(signed.status == 0, "\(signed.stderr)")

        let protected = place.file("id_protected")
        _ = try await tool("/usr/bin/ssh-keygen", ["-q", "-t", type, "-N", "a passphrase", "-f", protected] + (type == "ecdsa" ? ["-b", "256"] : []))
        let refused = try await sesame(["key", "import", "locked", "--access", "none"], stdin: try contents(protected))
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("passphrase"))
    }

    @Test("SPEC D7: PKCS#8 and SEC1 PEM keys from OpenSSL import with the algorithm they hold",
          arguments: [("ed25519", ["genpkey", "-algorithm", "ed25519"]), ("x25519", ["genpkey", "-algorithm", "x25519"]),
                      ("p256", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
                      ("p256-agreement", ["ecparam", "-name", "prime256v1", "-genkey", "-noout"])])
    func openSSL(algorithm: String, generate: [String]) async throws {
        defer { place.remove() }
        try await place.createVault()
        let file = place.file("key.pem")
        _ = try await tool("/usr/bin/openssl", generate + ["-out", file])
        let arguments = algorithm == "p256-agreement" ? ["--algorithm", algorithm] : []
        let imported = try await sesame(["key", "import", "k", "--access", "none", "--format", "pem"] + arguments, stdin: try contents(file))
        #expect(imported.status == 0, "\(imported.stderr)")
        let expected = try await tool("/usr/bin/openssl", ["pkey", "-in", file, "-pubout"])
        #expect(imported.stdout == expected.stdout)
        let listed = try await sesame(["key", "ls", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]])
        #expect(entries.first?["algorithm"] as? String == algorithm)
        // Asking for the other curve's algorithm is refused, naming what the file holds.
        let wrong = try await sesame(["key", "import", "k2", "--access", "none", "--algorithm", algorithm.hasPrefix("p256") ? "ed25519" : "p256"],
                                     stdin: try contents(file))
        #expect(wrong.status == 2)
    }

    @Test("SPEC D7: no command prints, lists, or errs with a private key: every output is searched for the imported key's bytes")
    func noPrivateKeyComesOut() async throws {
        defer { place.remove() }
        try await place.createVault()
        var outputs: [SesameBinary.Result] = []
        var secrets: [Data] = []
        for (name, generate) in [("ed", ["genpkey", "-algorithm", "ed25519"]), ("ec", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
                                 ("x", ["genpkey", "-algorithm", "x25519"])] {
            let file = place.file(name + ".pem")
            _ = try await tool("/usr/bin/openssl", generate + ["-out", file])
            let pem = try contents(file)
            // The private scalar or seed: the last 32 bytes of the DER for these keys.
            let der = try await SesameBinary.run(["pkey", "-in", file, "-outform", "DER"], environment: environment,
                                                 executable: URL(fileURLWithPath: "/usr/bin/openssl")).output
            let scalar = name == "ec" ? Self.ecScalar(der) : der.suffix(32)
            secrets += [Data(scalar), Data(scalar.map { String(format: "%02x", $0) }.joined().utf8), Data(scalar.base64EncodedString().utf8)]
            secrets += String(decoding: pem, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("-----") }.map { Data($0.utf8) }
            outputs.append(try await sesame(["key", "import", name, "--access", "none"], stdin: pem))
            outputs.append(try await sesame(["key", "import", name, "--access", "none"], stdin: pem))  // duplicate: an error
            outputs.append(try await sesame(["key", "import", name + "-bad", "--access", "none"], stdin: pem.dropLast(40)))  // truncated: an error
            for format in ["openssh", "pem", "raw"] {
                outputs.append(try await sesame(["key", "public", name, "--format", format]))
            }
        }
        outputs.append(try await sesame(["key", "ls"]))
        outputs.append(try await sesame(["key", "ls", "--json"]))
        outputs.append(try await sesame(["key", "sign", "ed"], stdin: Data("m".utf8)))
        outputs.append(try await sesame(["key", "sign", "x"], stdin: Data("m".utf8)))
        outputs.append(try await sesame(["key", "decrypt", "x"], stdin: Data("not a ciphertext".utf8)))
        outputs.append(try await sesame(["ls", "--json"]))
        outputs.append(try await sesame(["get", "ed"]))
        outputs.append(try await sesame(["status", "--json"]))
        #expect(outputs.count == 26)
        #expect(outputs[0].status == 0 && outputs[1].status == 1 && outputs[2].status == 2, "\(outputs.prefix(3).map(\.stderr))")
        for (index, output) in outputs.enumerated() {
            for secret in secrets {
                #expect(output.output.range(of: secret) == nil, "output \(index) holds private key material")
                #expect(Data(output.stderr.utf8).range(of: secret) == nil, "error \(index) holds private key material")
            }
        }
        // The vault file itself holds it only sealed.
        let file = try contents(place.vault)
        for secret in secrets.prefix(1) { #expect(file.range(of: secret) == nil) }
    }

    /// The 32-byte private scalar of a P-256 PKCS#8 key (the OCTET STRING after `04 20` inside the ECPrivateKey).
    static func ecScalar(_ der: Data) -> Data {
        let bytes = Array(der)
        for index in 0..<(bytes.count - 34) where bytes[index] == 0x02 && bytes[index + 1] == 0x01 && bytes[index + 2] == 0x01
            && bytes[index + 3] == 0x04 && bytes[index + 4] == 0x20 {
            return Data(bytes[(index + 5)..<(index + 37)])
        }
        Issue.record("no scalar found in the DER")
        return Data()
    }

    @Test("Exit codes as for items: 3 no such key, 2 wrong purpose or format, 1 duplicate, 7 nothing can check the owner; rm")
    func exitCodes() async throws {
        defer { place.remove() }
        try await place.createVault()
        #expect(try await sesame(["key", "sign", "missing"], stdin: Data("m".utf8)).status == 3)
        #expect(try await sesame(["key", "public", "missing"]).status == 3)
        #expect(try await sesame(["key", "create", "k", "--algorithm", "rsa"]).status == 2)
        #expect(try await sesame(["key", "create", "k", "--algorithm", "ed25519", "--access", "nobody"]).status == 2)
        #expect(try await sesame(["key", "create", "k", "--algorithm", "ed25519", "--accessibility", "when-unlocked"]).status == 2)
        let guarded = try await sesame(["key", "create", "k", "--algorithm", "ed25519"])
        #expect(guarded.status == 0, "the default access (user-presence) needs nothing to create: \(guarded.stderr)")
        #expect(try await sesame(["key", "create", "k", "--algorithm", "p256"]).status == 1)
        let ls = try await sesame(["key", "ls"])
        #expect(ls.stdout.hasPrefix("sesame\tk\ted25519\tuser-presence\tSHA256:"))
        // No reader on this bus and no PAM service: nothing can check the
        // owner, so 7 (KeyBiometricCommandTests: 10 when a scan would be needed).
        let needsPrompt = try await sesame(["key", "sign", "k"], stdin: Data("m".utf8))
        #expect(needsPrompt.status == 7, "\(needsPrompt.stderr)")
        #expect(needsPrompt.output.isEmpty)
        #expect(try await sesame(["key", "public", "k", "--format", "pem"]).status == 0, "the public key never prompts")
        #expect(try await sesame(["key", "encrypt", "k"], stdin: Data("m".utf8)).status == 2, "a signing key does not encrypt")
        #expect(try await sesame(["key", "rm", "k"]).status == 0)
        #expect(try await sesame(["key", "rm", "k"]).status == 3)
        #expect(try await sesame(["key", "ls"]).stdout.isEmpty)
    }
}
