import Foundation
import SesameLinuxTesting
import Testing

/// `sesame key …` judged by independent programs (SPEC D7): OpenSSL verifies
/// the signatures and derives the same shared secrets, OpenSSH reads the
/// public keys and writes the keys imported, and Python's `cryptography`
/// encrypts and decrypts the ECIES ciphertexts. The keys use `--access none`
/// (no reader on this bus); `KeyAccessCommandTests` covers the prompts.
@Suite("sesame key: signatures, public keys, shared secrets and ECIES that other programs accept")
struct KeyCommandTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func sesame(_ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin)
    }

    /// Runs another program (`/usr/bin/openssl`, …) in this home.
    private func tool(_ path: String, _ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try await SesameBinary.run(arguments, environment: environment, stdin: stdin, executable: URL(fileURLWithPath: path))
    }

    private func write(_ name: String, _ data: Data) throws -> String {
        let path = place.file(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    private func expectSuccess(_ result: SesameBinary.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(what): \(result.stderr)", sourceLocation: sourceLocation)
    }

    static let message = Data("signed by a key that never leaves the vault\n".utf8)

    @Test("SPEC D7: Ed25519 — OpenSSL verifies the signature, ssh-keygen reads the OpenSSH key and prints our fingerprint")
    func ed25519() async throws {
        defer { place.remove() }
        try await place.createVault()
        let created = try await sesame(["key", "create", "deploy", "--algorithm", "ed25519", "--access", "none", "--label", "me@laptop"])
        expectSuccess(created, "create")
        #expect(created.stdout.hasPrefix("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"))
        #expect(created.stdout.hasSuffix(" me@laptop\n"))
        let openSSH = try write("deploy.pub", created.output)
        let fingerprint = try await tool("/usr/bin/ssh-keygen", ["-l", "-f", openSSH])
        expectSuccess(fingerprint, "ssh-keygen -l")
        let listed = try await sesame(["key", "ls"])
        let ours = try #require(listed.stdout.split(separator: "\t").last?.trimmingCharacters(in: .newlines))
        #expect(fingerprint.stdout.hasPrefix("256 \(ours) me@laptop (ED25519)"), "\(fingerprint.stdout) vs \(ours)")

        let pem = try await sesame(["key", "public", "deploy", "--format", "pem"])
        #expect(pem.stdout.hasPrefix("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA"))
        let pemFile = try write("deploy.pem", pem.output)
        let messageFile = try write("message", Self.message)
        let signed = try await sesame(["key", "sign", "deploy"], stdin: Self.message)
        expectSuccess(signed, "sign")
        #expect(signed.output.count == 64)
        let signature = try write("signature", signed.output)
        let verified = try await tool("/usr/bin/openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", pemFile, "-rawin", "-in", messageFile, "-sigfile", signature])
        #expect(verified.status == 0 && verified.stdout.contains("Signature Verified Successfully"), "\(verified.stdout) \(verified.stderr)")
        let forged = try write("forged", Self.message + Data("!".utf8))
        let refused = try await tool("/usr/bin/openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", pemFile, "-rawin", "-in", forged, "-sigfile", signature])
        #expect(refused.status != 0, "the check can fail")
        #expect(try await sesame(["key", "sign", "deploy", "--format", "der"], stdin: Self.message).status == 2)
    }

    @Test("SPEC D7: P-256 — `openssl dgst -sha256 -verify` accepts the DER signature; raw is r‖s; ssh-keygen reads the key")
    func p256() async throws {
        defer { place.remove() }
        try await place.createVault()
        let created = try await sesame(["key", "create", "signer", "--algorithm", "p256", "--access", "none"])
        expectSuccess(created, "create")
        #expect(created.stdout.hasPrefix("ecdsa-sha2-nistp256 "))
        let keygen = try await tool("/usr/bin/ssh-keygen", ["-l", "-f", try write("signer.pub", created.output)])
        #expect(keygen.status == 0 && keygen.stdout.contains("(ECDSA)"), "\(keygen.stdout) \(keygen.stderr)")
        let pemFile = try write("signer.pem", try await sesame(["key", "public", "signer", "--format", "pem"]).output)
        let messageFile = try write("message", Self.message)
        for round in 0..<3 {
            let signed = try await sesame(["key", "sign", "signer"], stdin: Self.message)
            expectSuccess(signed, "sign")
            let verified = try await tool("/usr/bin/openssl", ["dgst", "-sha256", "-verify", pemFile, "-signature", try write("sig\(round)", signed.output), messageFile])
            #expect(verified.stdout == "Verified OK\n", "\(verified.stdout) \(verified.stderr)")
        }
        let raw = try await sesame(["key", "sign", "signer", "--format", "raw"], stdin: Self.message)
        #expect(raw.status == 0 && raw.output.count == 64)
        let rawPublic = try await sesame(["key", "public", "signer", "--format", "raw"])
        #expect(rawPublic.output.count == 65 && rawPublic.output.first == 0x04)
        let other = try write("other", Data("another message".utf8))
        let verifiedOther = try await tool("/usr/bin/openssl", ["dgst", "-sha256", "-verify", pemFile, "-signature", place.file("sig0"), other])
        #expect(verifiedOther.status != 0, "the check can fail")
    }

    @Test("SPEC D7: the shared secret equals `openssl pkeyutl -derive` from the peer's side", arguments: ["x25519", "p256-agreement"])
    func agreement(algorithm: String) async throws {
        defer { place.remove() }
        try await place.createVault()
        let created = try await sesame(["key", "create", "kx", "--algorithm", algorithm, "--access", "none"])
        expectSuccess(created, "create")
        #expect(created.stdout.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let ours = try write("ours.pem", created.output)
        let peerKey = place.file("peer.key")
        let generate = algorithm == "x25519"
            ? ["genpkey", "-algorithm", "X25519", "-out", peerKey]
            : ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", peerKey]
        expectSuccess(try await tool("/usr/bin/openssl", generate), "genpkey")
        let peerPublic = place.file("peer.pem")
        expectSuccess(try await tool("/usr/bin/openssl", ["pkey", "-in", peerKey, "-pubout", "-out", peerPublic]), "pkey -pubout")
        let agreed = try await sesame(["key", "agree", "kx", "--peer", peerPublic])
        expectSuccess(agreed, "agree")
        let derived = try await tool("/usr/bin/openssl", ["pkeyutl", "-derive", "-inkey", peerKey, "-peerkey", ours])
        expectSuccess(derived, "pkeyutl -derive")
        #expect(agreed.output.count == 32)
        #expect(agreed.output == derived.output)
        // Never to a terminal: a shared secret on the screen is a secret shown.
        let terminal = try TerminalSession(arguments: ["key", "agree", "kx", "--peer", peerPublic, "--no-interaction"], environment: environment)
        let shown = await terminal.finish()
        #expect(shown.status == 2, "\(shown.screen)")
        #expect(shown.screen.contains("standard output is a terminal"))
        // A signing key's PEM is not a peer for key agreement.
        let signer = try await sesame(["key", "create", "s", "--algorithm", "ed25519", "--access", "none", "--format", "pem"])
        #expect(try await sesame(["key", "agree", "kx", "--peer", try write("s.pem", signer.output)]).status == 2)
    }

    /// ECIES as Apple's eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
    /// written independently with Python's `cryptography`.
    static let python = #"""
    import sys
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, x25519
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF

    def kdf(z, e):
        out = X963KDF(algorithm=hashes.SHA256(), length=32, sharedinfo=e).derive(z)
        return out[:16], out[16:]

    mode, key_file = sys.argv[1], sys.argv[2]
    data = sys.stdin.buffer.read()
    if mode == "encrypt":
        public = serialization.load_pem_public_key(open(key_file, "rb").read())
        if isinstance(public, x25519.X25519PublicKey):
            eph = x25519.X25519PrivateKey.generate()
            z = eph.exchange(public)
            e = eph.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        else:
            eph = ec.generate_private_key(ec.SECP256R1())
            z = eph.exchange(ec.ECDH(), public)
            e = eph.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        k, iv = kdf(z, e)
        sys.stdout.buffer.write(e + AESGCM(k).encrypt(iv, data, None))
    else:
        private = serialization.load_pem_private_key(open(key_file, "rb").read(), password=None)
        if isinstance(private, x25519.X25519PrivateKey):
            e = data[:32]
            z = private.exchange(x25519.X25519PublicKey.from_public_bytes(e))
        else:
            e = data[:65]
            z = private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), e))
        k, iv = kdf(z, e)
        sys.stdout.buffer.write(AESGCM(k).decrypt(iv, data[len(e):], None))
    """#

    @Test("SPEC D7: ECIES (X9.63 SHA-256, AES-GCM, variable IV) both ways with an independent implementation", arguments: ["x25519", "p256-agreement"])
    func ecies(algorithm: String) async throws {
        defer { place.remove() }
        try await place.createVault()
        let script = try write("ecies.py", Data(Self.python.utf8))
        // A key the test holds the private half of, imported, so Python can decrypt what sesame encrypts.
        let keyFile = place.file("k.pem")
        let generate = algorithm == "x25519"
            ? ["genpkey", "-algorithm", "X25519", "-out", keyFile]
            : ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile]
        expectSuccess(try await tool("/usr/bin/openssl", generate), "genpkey")
        let imported = try await sesame(["key", "import", "kx", "--algorithm", algorithm, "--access", "none"],
                                        stdin: try Data(contentsOf: URL(fileURLWithPath: keyFile)))
        expectSuccess(imported, "import")
        let publicFile = try write("kx.pem", imported.output)
        let plaintext = Data("attack at dawn, \(algorithm)".utf8)

        let fromPython = try await tool(TestPython.path, [script, "encrypt", publicFile], stdin: plaintext)
        expectSuccess(fromPython, "python encrypt")
        let opened = try await sesame(["key", "decrypt", "kx"], stdin: fromPython.output)
        expectSuccess(opened, "decrypt")
        #expect(opened.output == plaintext)

        let sealed = try await sesame(["key", "encrypt", "kx"], stdin: plaintext)
        expectSuccess(sealed, "encrypt")
        #expect(sealed.output.count == (algorithm == "x25519" ? 32 : 65) + plaintext.count + 16)
        let byPython = try await tool(TestPython.path, [script, "decrypt", keyFile], stdin: sealed.output)
        expectSuccess(byPython, "python decrypt")
        #expect(byPython.output == plaintext)

        var changed = fromPython.output
        changed[changed.count - 1] ^= 1
        #expect(try await sesame(["key", "decrypt", "kx"], stdin: changed).status == 4)
    }
}
