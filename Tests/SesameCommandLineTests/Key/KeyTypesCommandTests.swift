import Foundation
import Testing

/// `sesame key create|import|public|sign|ls` for RSA 2048/3072/4096, P-384
/// and P-521 (SPEC D7), judged by OpenSSH (`ssh-keygen` writes the
/// files and reads the public keys) and OpenSSL (verifies every signature).
@Suite("sesame key: RSA, P-384 and P-521 keys that OpenSSH and OpenSSL accept", .serialized)
struct KeyTypesCommandTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func sesame(_ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin)
    }

    private func tool(_ path: String, _ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing (openssh-client, openssl)")
        return try await SesameBinary.run(arguments, environment: environment, stdin: stdin, executable: URL(fileURLWithPath: path))
    }

    private func write(_ name: String, _ data: Data) throws -> String {
        let path = place.file(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    static let message = Data("signed by a key that never leaves the vault\n".utf8)

    /// `ssh-keygen` arguments for a key of the algorithm.
    static func keygen(_ algorithm: String) -> [String] {
        algorithm.hasPrefix("rsa-") ? ["-t", "rsa", "-b", String(algorithm.dropFirst(4))] : ["-t", "ecdsa", "-b", String(algorithm.dropFirst(1))]
    }

    /// OpenSSL's digest for each scheme or curve, and its extra options.
    static func openSSLDigest(_ algorithm: String, scheme: String?) -> [String] {
        switch scheme {
        case "rsa-sha2-512": ["-sha512"]
        case "rsa-pss-sha256": ["-sha256", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest"]
        case "rsa-pss-sha512": ["-sha512", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest"]
        case "rsa-sha2-256": ["-sha256"]
        default: algorithm == "p384" ? ["-sha384"] : algorithm == "p521" ? ["-sha512"] : ["-sha256"]
        }
    }

    /// Signs ``message`` with the vault's key `name` and has OpenSSL verify it,
    /// and refuse it for other data.
    private func expectVerified(_ name: String, algorithm: String, scheme: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let pem = try await sesame(["key", "public", name, "--format", "pem"])
        #expect(pem.status == 0, "\(pem.stderr)", sourceLocation: sourceLocation)
        let publicKey = try write("\(name).pub.pem", pem.output)
        let signed = try await sesame(["key", "sign", name] + (scheme.map { ["--rsa-scheme", $0] } ?? []), stdin: Self.message)
        #expect(signed.status == 0, "\(signed.stderr)", sourceLocation: sourceLocation)
        let signature = try write("\(name).sig", signed.output)
        let digest = Self.openSSLDigest(algorithm, scheme: scheme)
        let verified = try await tool("/usr/bin/openssl", ["dgst"] + digest + ["-verify", publicKey, "-signature", signature], stdin: Self.message)
        #expect(verified.status == 0 && verified.stdout.contains("Verified OK"), "\(algorithm) \(scheme ?? ""): \(verified.stdout) \(verified.stderr)",
                sourceLocation: sourceLocation)
        let tampered = try await tool("/usr/bin/openssl", ["dgst"] + digest + ["-verify", publicKey, "-signature", signature], stdin: Self.message + Data("x".utf8))
        #expect(tampered.status != 0, "the check can fail", sourceLocation: sourceLocation)
    }

    @Test("SPEC D7: ssh-keygen's OpenSSH and PEM files import; key public is what ssh-keygen -y derives; OpenSSL verifies key sign",
          arguments: ["rsa-2048", "rsa-3072", "rsa-4096", "p384", "p521"])
    func importFromSSHKeygen(algorithm: String) async throws {
        defer { place.remove() }
        try await place.createVault()
        // OpenSSH's own format, then PKCS#8 and PEM (PKCS#1 for RSA, SEC1 for ECDSA).
        for format in ["", "PKCS8", "PEM"] {
            let name = "k" + format.lowercased()
            let file = place.file("id_\(name)")
            let made = try await tool("/usr/bin/ssh-keygen", ["-q"] + Self.keygen(algorithm) + ["-N", "", "-C", "me@host", "-f", file] + (format.isEmpty ? [] : ["-m", format]))
            #expect(made.status == 0, "\(made.stderr)")
            let header = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
            let expectedHeader = switch format {
            case "": "-----BEGIN OPENSSH PRIVATE KEY-----"
            case "PKCS8": "-----BEGIN PRIVATE KEY-----"
            default: algorithm.hasPrefix("rsa") ? "-----BEGIN RSA PRIVATE KEY-----" : "-----BEGIN EC PRIVATE KEY-----"
            }
            #expect(header == expectedHeader, "the file is in the format under test")
            let imported = try await sesame(["key", "import", name, "--access", "none"], stdin: try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(imported.status == 0, "\(format): \(imported.stderr)")
            let derived = try await tool("/usr/bin/ssh-keygen", ["-y", "-f", file])
            let fields = { (text: String) in text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").prefix(2).joined(separator: " ") }
            #expect(fields(imported.stdout) == fields(derived.stdout), "\(format)")
            #expect(fields(try await sesame(["key", "public", name]).stdout) == fields(derived.stdout))
            let listed = try await sesame(["key", "ls", "--json"])
            let entries = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]])
            #expect(entries.first { $0["name"] as? String == name }?["algorithm"] as? String == algorithm, "\(listed.stdout)")
        }
        if algorithm.hasPrefix("rsa") {
            for scheme in ["rsa-sha2-256", "rsa-sha2-512", "rsa-pss-sha256", "rsa-pss-sha512"] {
                try await expectVerified("k", algorithm: algorithm, scheme: scheme)
            }
            try await expectVerified("kpem", algorithm: algorithm)
        } else {
            try await expectVerified("k", algorithm: algorithm)
            try await expectVerified("kpkcs8", algorithm: algorithm)
            let other = try await sesame(["key", "sign", "k", "--rsa-scheme", "rsa-sha2-256"], stdin: Self.message)
            #expect(other.status == 2, "an RSA scheme on an ECDSA key: \(other.stderr)")
        }
        // A passphrase-protected file is refused and says so.
        let protected = place.file("id_protected")
        _ = try await tool("/usr/bin/ssh-keygen", ["-q"] + Self.keygen(algorithm) + ["-N", "a passphrase", "-m", "PEM", "-f", protected])
        let refused = try await sesame(["key", "import", "locked", "--access", "none"], stdin: try Data(contentsOf: URL(fileURLWithPath: protected)))
        #expect(refused.status == 2 && refused.stderr.contains("encrypted"), "\(refused.stderr)")
    }

    @Test("SPEC D7: an OpenSSL key whose stored public point is another key's, or off the curve, is refused in SEC1 and PKCS#8; the untouched file imports",
          arguments: [("prime256v1", 65), ("secp384r1", 97), ("secp521r1", 133)])
    func importRefusesAPointThatIsNotTheKeys(curve: String, pointLength: Int) async throws {
        defer { place.remove() }
        try await place.createVault()
        // The point is the last field of both layouts (OpenSSL writes PKCS#8 v1, no attributes; `pkey -outform DER`
        // would write SEC1 again, so `pkcs8 -topk8`).
        func der(_ arguments: [String]) async throws -> [UInt8] {
            let run = try await tool("/usr/bin/openssl", arguments)
            try #require(run.status == 0, "openssl \(arguments): \(run.stderr)")
            return Array(run.output)
        }
        for name in ["mine", "other"] {
            _ = try await der(["ecparam", "-name", curve, "-genkey", "-noout", "-out", place.file(name + ".pem")])
        }
        let otherPoint = Array(try await der(["ec", "-in", place.file("other.pem"), "-pubout", "-outform", "DER"]).suffix(pointLength))
        for (layout, label, arguments) in [("SEC1", "EC PRIVATE KEY", ["ec", "-in", place.file("mine.pem"), "-outform", "DER"]),
                                           ("PKCS#8", "PRIVATE KEY", ["pkcs8", "-topk8", "-nocrypt", "-in", place.file("mine.pem"), "-outform", "DER"])] {
            let original = try await der(arguments)
            let point = Array(original.suffix(pointLength))
            try #require(point.first == 4 && point != otherPoint, "\(layout) ends in an uncompressed point")
            var offCurve = point
            offCurve[pointLength - 1] ^= 1
            let pem = { (bytes: [UInt8]) in
                Data("-----BEGIN \(label)-----\n\(Data(bytes).base64EncodedString(options: .lineLength64Characters))\n-----END \(label)-----\n".utf8)
            }
            for (what, replacement) in [("another key's point", otherPoint), ("a point off the curve", offCurve)] {
                let refused = try await sesame(["key", "import", "bad", "--access", "none"], stdin: pem(original.dropLast(pointLength) + replacement))
                #expect(refused.status == 2, "\(curve) \(layout) with \(what) was not refused: \(refused.stdout) \(refused.stderr)")
                #expect(refused.stderr.contains("public key"), "\(refused.stderr)")
            }
            let accepted = try await sesame(["key", "import", "good-\(layout == "SEC1" ? "sec1" : "pkcs8")", "--access", "none"], stdin: pem(original))
            #expect(accepted.status == 0, "\(curve) \(layout): \(accepted.stderr)")
        }
        let listed = try await sesame(["key", "ls", "--json"])
        #expect(!listed.stdout.contains("\"bad\""), "\(listed.stdout)")
    }

    @Test("SPEC D7: key create --algorithm makes each type; ssh-keygen reads its public key with the right size and type",
          arguments: [("rsa-2048", "2048", "(RSA)"), ("rsa-3072", "3072", "(RSA)"), ("rsa-4096", "4096", "(RSA)"),
                      ("p384", "384", "(ECDSA)"), ("p521", "521", "(ECDSA)")])
    func create(algorithm: String, bits: String, type: String) async throws {
        defer { place.remove() }
        try await place.createVault()
        let created = try await sesame(["key", "create", "k", "--algorithm", algorithm, "--access", "none"])
        #expect(created.status == 0, "\(created.stderr)")
        let publicKey = try write("k.pub", created.output)
        let read = try await tool("/usr/bin/ssh-keygen", ["-l", "-f", publicKey])
        #expect(read.status == 0 && read.stdout.hasPrefix(bits + " SHA256:") && read.stdout.hasSuffix(type + "\n"), "\(read.stdout) \(read.stderr)")
        try await expectVerified("k", algorithm: algorithm)
    }
}
