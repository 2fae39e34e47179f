#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import CryptoExtras
import SwiftASN1

/// A private key in memory, for the duration of one vault operation: made
/// from the sealed bytes, used, dropped. Never returned by any API (SPEC D7).
///
/// Stored form (sealed by the vault): the 32-byte Ed25519 seed, X25519
/// scalar, or P-256 scalar.
enum PrivateKeyMaterial {
    case ed25519(Curve25519.Signing.PrivateKey)
    case p256(P256.Signing.PrivateKey)
    case x25519(Curve25519.KeyAgreement.PrivateKey)
    case p256Agreement(P256.KeyAgreement.PrivateKey)

    /// A new random key.
    init(generating algorithm: KeyAlgorithm) {
        switch algorithm {
        case .ed25519: self = .ed25519(.init())
        case .p256: self = .p256(.init())
        case .x25519: self = .x25519(.init())
        case .p256Agreement: self = .p256Agreement(.init())
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
        }
    }

    /// The bytes the vault seals; the caller wipes them.
    var storedBytes: [UInt8] {
        switch self {
        case .ed25519(let key): Array(key.rawRepresentation)
        case .p256(let key): Array(key.rawRepresentation)
        case .x25519(let key): Array(key.rawRepresentation)
        case .p256Agreement(let key): Array(key.rawRepresentation)
        }
    }

    var publicKey: PublicKey {
        let raw: [UInt8] = switch self {
        case .ed25519(let key): Array(key.publicKey.rawRepresentation)
        case .p256(let key): Array(key.publicKey.x963Representation)
        case .x25519(let key): Array(key.publicKey.rawRepresentation)
        case .p256Agreement(let key): Array(key.publicKey.x963Representation)
        }
        return try! PublicKey(algorithm: algorithm, rawRepresentation: raw)  // try!: the key's own public part is valid for its algorithm
    }

    /// Signs `data` (P-256: ECDSA over its SHA-256).
    func sign(_ data: [UInt8], encoding: SignatureEncoding) throws(VaultError) -> [UInt8] {
        do {
            switch self {
            case .ed25519(let key):
                return Array(try key.signature(for: data))
            case .p256(let key):
                let signature = try key.signature(for: data)
                return encoding == .raw ? Array(signature.rawRepresentation) : Array(signature.derRepresentation)
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
            case .ed25519, .p256:
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

    // MARK: Import

    /// Reads a private key in PEM (PKCS#8 `PRIVATE KEY`, SEC1 `EC PRIVATE
    /// KEY`) or OpenSSH (`OPENSSH PRIVATE KEY`, unencrypted) form.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - algorithm: Required to pick ``KeyAlgorithm/p256Agreement`` for a
    ///     P-256 key (a P-256 file does not say what it is for); otherwise,
    ///     when given, must match the file.
    /// - Returns: The key and the OpenSSH comment, if any.
    /// - Throws: ``VaultError`` `invalidArgument`, never showing the input.
    static func importing(_ text: String, algorithm requested: KeyAlgorithm?) throws(VaultError) -> (PrivateKeyMaterial, comment: String?) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        // OpenSSH wraps its base64 at 70 columns, which strict PEM (64) refuses.
        let document = try? PEMDocument(pemString: trimmed)
        let openSSH = document == nil ? SSHKeyEncoding.armoredPrivateKeyFile(trimmed) : nil
        guard document != nil || openSSH != nil else {
            throw VaultError(.invalidArgument, "Not a PEM or OpenSSH private key (expected a -----BEGIN … PRIVATE KEY----- block)")
        }
        var comment: String?
        var key: PrivateKeyMaterial
        do {
            switch document?.discriminator ?? "OPENSSH PRIVATE KEY" {
            case "OPENSSH PRIVATE KEY":
                let file = try SSHKeyEncoding.parsePrivateKeyFile(openSSH ?? document!.derBytes)
                key = try PrivateKeyMaterial(algorithm: file.algorithm, stored: file.privateKey)
                guard key.publicKey.rawRepresentation == file.publicKey else {
                    throw VaultError(.invalidArgument, "The OpenSSH file's public key does not belong to its private key")
                }
                comment = file.comment.isEmpty ? nil : file.comment
            case "PRIVATE KEY":
                let document = document!
                switch try pkcs8Algorithm(document.derBytes) {
                case .ed25519: key = .ed25519(try .init(derRepresentation: document.derBytes))
                case .x25519: key = .x25519(try .init(derRepresentation: document.derBytes))
                default: key = .p256(try .init(derRepresentation: document.derBytes))
                }
            case "EC PRIVATE KEY":
                key = .p256(try .init(derRepresentation: document!.derBytes))
            case "ENCRYPTED PRIVATE KEY":
                throw VaultError(.invalidArgument, "This key is encrypted; decrypt a copy first (openssl pkey -in KEY -out COPY), import the copy, then delete it")
            default:
                throw VaultError(.invalidArgument, "A \(document!.discriminator) block is not a private key Sesame can import")
            }
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.invalidArgument, "The private key is malformed, or not an Ed25519, X25519 or P-256 key")
        }
        if case .p256(let signing) = key, requested == .p256Agreement {
            key = try PrivateKeyMaterial(algorithm: .p256Agreement, stored: Array(signing.rawRepresentation))
        }
        if let requested, requested != key.algorithm {
            throw VaultError(.invalidArgument, "The file holds a \(key.algorithm) key, not \(requested)")
        }
        return (key, comment)
    }

    /// The algorithm a PKCS#8 `PrivateKeyInfo` names: Ed25519, X25519 or
    /// P-256 (`ecPublicKey` on `secp256r1`); swift-crypto's parsers do not
    /// tell Ed25519 from X25519, so this reads the identifier itself.
    private static func pkcs8Algorithm(_ der: [UInt8]) throws -> KeyAlgorithm {
        let root = try DER.parse(der)
        return try DER.sequence(root, identifier: .sequence) { nodes in
            _ = try Int(derEncoded: &nodes)
            let algorithm = try DER.sequence(of: ASN1Any.self, identifier: .sequence, nodes: &nodes)
            while nodes.next() != nil {}
            guard let first = algorithm.first else { throw ASN1Error.invalidASN1Object(reason: "no algorithm") }
            let oid = try ASN1ObjectIdentifier(asn1Any: first)
            switch oid {
            case [1, 3, 101, 112]: return .ed25519
            case [1, 3, 101, 110]: return .x25519
            case .AlgorithmIdentifier.idEcPublicKey:
                guard algorithm.count == 2, try ASN1ObjectIdentifier(asn1Any: algorithm[1]) == .NamedCurves.secp256r1 else {
                    throw ASN1Error.invalidASN1Object(reason: "not P-256")
                }
                return .p256
            default:
                throw ASN1Error.invalidASN1Object(reason: "unsupported algorithm")
            }
        }
    }
}
