import Crypto
import CryptoExtras

/// A private key in memory, for the duration of one vault operation: made
/// from the sealed bytes, used, dropped. Never returned by any API (SPEC D7).
///
/// Stored form (sealed by the vault): the 32-byte Ed25519 seed, X25519
/// scalar, or P-256 scalar; the 48-byte P-384 and 66-byte P-521 scalars;
/// an RSA key's PKCS#1 `RSAPrivateKey` DER.
enum PrivateKeyMaterial {
    case ed25519(Curve25519.Signing.PrivateKey)
    case p256(P256.Signing.PrivateKey)
    case x25519(Curve25519.KeyAgreement.PrivateKey)
    case p256Agreement(P256.KeyAgreement.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case p521(P521.Signing.PrivateKey)
    /// The algorithm says the modulus size, checked whenever one is made.
    case rsa(_RSA.Signing.PrivateKey, KeyAlgorithm)

    /// A new random key.
    init(generating algorithm: KeyAlgorithm) throws(VaultError) {
        switch algorithm {
        case .ed25519: self = .ed25519(.init())
        case .p256: self = .p256(.init())
        case .x25519: self = .x25519(.init())
        case .p256Agreement: self = .p256Agreement(.init())
        case .p384: self = .p384(.init())
        case .p521: self = .p521(.init())
        case .rsa2048, .rsa3072, .rsa4096:
            do {
                self = .rsa(try _RSA.Signing.PrivateKey(keySize: .init(bitCount: algorithm.rsaBits!)), algorithm)  // !: an RSA case has a size
            } catch {
                throw VaultError(.ioError, "Could not make an \(algorithm) key: \(error)")
            }
        }
    }

    /// A new random key, made where it cannot stall other work: finding
    /// RSA primes takes BoringSSL from a fraction of a second to several
    /// seconds (4096 bits), during which the calling thread is blocked, so an
    /// RSA key is made on a ``DedicatedThread`` rather than on one of the
    /// cooperative pool's few threads. Elliptic-curve keys take microseconds
    /// and are made here.
    ///
    /// - Parameter algorithm: What to make.
    /// - Returns: The key.
    /// - Throws: ``VaultError`` `ioError` when it could not be made.
    static func generating(_ algorithm: KeyAlgorithm) async throws(VaultError) -> PrivateKeyMaterial {
        guard algorithm.rsaBits != nil else { return try PrivateKeyMaterial(generating: algorithm) }
        return try await DedicatedThread.run(
            name: "sesame-keygen", noThread: VaultError(.ioError, "Could not make an \(algorithm) key: no thread could be started")
        ) { () throws(VaultError) in
            try PrivateKeyMaterial(generating: algorithm)
        }
    }

    /// The key from its stored bytes.
    init(algorithm: KeyAlgorithm, stored bytes: [UInt8]) throws(VaultError) {
        do {
            switch algorithm {
            case .ed25519: self = .ed25519(try .init(rawRepresentation: bytes))
            case .p256: self = .p256(try .init(rawRepresentation: bytes))
            case .x25519: self = .x25519(try .init(rawRepresentation: bytes))
            case .p256Agreement: self = .p256Agreement(try .init(rawRepresentation: bytes))
            case .p384: self = .p384(try .init(rawRepresentation: bytes))
            case .p521: self = .p521(try .init(rawRepresentation: bytes))
            case .rsa2048, .rsa3072, .rsa4096:
                let key = try _RSA.Signing.PrivateKey(derRepresentation: bytes)
                guard key.keySizeInBits == algorithm.rsaBits else { throw VaultError(.tampered, "size") }
                self = .rsa(key, algorithm)
            }
        } catch {
            throw VaultError(.tampered, "The stored \(algorithm) private key is not a valid key: the vault's data was altered")
        }
    }

    var algorithm: KeyAlgorithm {
        switch self {
        case .ed25519: .ed25519
        case .p256: .p256
        case .x25519: .x25519
        case .p256Agreement: .p256Agreement
        case .p384: .p384
        case .p521: .p521
        case .rsa(_, let algorithm): algorithm
        }
    }

    /// The bytes the vault seals; the caller wipes them.
    var storedBytes: [UInt8] {
        switch self {
        case .ed25519(let key): Array(key.rawRepresentation)
        case .p256(let key): Array(key.rawRepresentation)
        case .x25519(let key): Array(key.rawRepresentation)
        case .p256Agreement(let key): Array(key.rawRepresentation)
        case .p384(let key): Array(key.rawRepresentation)
        case .p521(let key): Array(key.rawRepresentation)
        case .rsa(let key, _): Array(key.derRepresentation)
        }
    }

    var publicKey: PublicKey {
        let raw: [UInt8] = switch self {
        case .ed25519(let key): Array(key.publicKey.rawRepresentation)
        case .p256(let key): Array(key.publicKey.x963Representation)
        case .x25519(let key): Array(key.publicKey.rawRepresentation)
        case .p256Agreement(let key): Array(key.publicKey.x963Representation)
        case .p384(let key): Array(key.publicKey.x963Representation)
        case .p521(let key): Array(key.publicKey.x963Representation)
        case .rsa(let key, _): Array(key.publicKey.pkcs1DERRepresentation)
        }
        return try! PublicKey(algorithm: algorithm, rawRepresentation: raw)  // try!: the key's own public part is valid for its algorithm
    }

    /// Signs `data`: ECDSA over the curve's hash (P-256 SHA-256, P-384
    /// SHA-384, P-521 SHA-512), RSA with `rsaScheme`.
    func sign(_ data: [UInt8], encoding: SignatureEncoding, rsaScheme: RSASignatureScheme = .pkcs1SHA256) throws(VaultError) -> [UInt8] {
        do {
            switch self {
            case .ed25519(let key):
                return Array(try key.signature(for: data))
            case .p256(let key):
                let signature = try key.signature(for: data)
                return encoding == .raw ? Array(signature.rawRepresentation) : Array(signature.derRepresentation)
            case .p384(let key):
                let signature = try key.signature(for: data)
                return encoding == .raw ? Array(signature.rawRepresentation) : Array(signature.derRepresentation)
            case .p521(let key):
                let signature = try key.signature(for: data)
                return encoding == .raw ? Array(signature.rawRepresentation) : Array(signature.derRepresentation)
            case .rsa(let key, _):
                return try RSAKeys.sign(data, with: key, scheme: rsaScheme)
            case .x25519, .p256Agreement:
                throw VaultError(.invalidArgument, "\(algorithm) keys cannot sign")
            }
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.ioError, "Signing failed: \(error)")
        }
    }

    /// The raw ECDH / X25519 shared secret with `peer`.
    func sharedSecret(with peer: PublicKey) throws(VaultError) -> SharedSecret {
        do {
            switch self {
            case .x25519(let key):
                return try key.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: peer.rawRepresentation))
            case .p256Agreement(let key):
                return try key.sharedSecretFromKeyAgreement(with: .init(x963Representation: peer.rawRepresentation))
            case .ed25519, .p256, .p384, .p521, .rsa:
                throw VaultError(.invalidArgument, "\(algorithm) keys only sign")
            }
        } catch let error as VaultError {
            throw error
        } catch {
            // X25519 with a low-order point gives an all-zero secret, which the library refuses.
            throw VaultError(.invalidArgument, "No shared secret with that peer key: \(error)")
        }
    }

    /// Decrypts what ``PublicKey/encrypt(_:)`` (or Apple's ECIES) made.
    ///
    /// - Returns: The plaintext, or `nil` when it does not decrypt.
    func decrypt(_ ciphertext: [UInt8]) throws(VaultError) -> [UInt8]? {
        let ephemeralLength = algorithm == .x25519 ? 32 : 65
        guard ciphertext.count >= ephemeralLength + ECIES.tagLength else { return nil }
        let ephemeral = Array(ciphertext[..<ephemeralLength])
        guard let peer = try? PublicKey(algorithm: algorithm, rawRepresentation: ephemeral),
              let secret = try? sharedSecret(with: peer) else { return nil }
        return ECIES.open(ciphertext[ephemeralLength...], sharedSecret: secret, ephemeralPublicKey: ephemeral)
    }
}
