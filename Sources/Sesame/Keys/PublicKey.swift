#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import CryptoExtras
import SwiftASN1

/// A protected key's public part, in the encodings other programs read
/// (SPEC D7): raw, SubjectPublicKeyInfo (DER, PEM) and OpenSSH.
///
/// Public keys are not secret: reading one never prompts, and anything may
/// be done with it, including verifying signatures and encrypting to it.
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The algorithm of the key pair.
    public let algorithm: KeyAlgorithm
    /// Ed25519, X25519: the 32-byte key. P-256: the 65-byte uncompressed
    /// X9.63 point (`04 ‖ X ‖ Y`), as `SecKeyCopyExternalRepresentation` gives;
    /// P-384 and P-521 alike (97 and 133 bytes). RSA: the PKCS#1
    /// `RSAPublicKey` DER (modulus and public exponent).
    public let rawRepresentation: [UInt8]

    /// A public key from its raw bytes.
    ///
    /// - Parameters:
    ///   - algorithm: The key pair's algorithm.
    ///   - rawRepresentation: See ``rawRepresentation``.
    /// - Throws: ``VaultError`` `invalidArgument` when the bytes are not a
    ///   valid key of that algorithm.
    public init(algorithm: KeyAlgorithm, rawRepresentation: some Collection<UInt8>) throws(VaultError) {
        let bytes = Array(rawRepresentation)
        let valid: Bool = switch algorithm {
        case .ed25519: (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)) != nil
        case .x25519: (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes)) != nil
        case .p256, .p256Agreement: bytes.count == 65 && (try? P256.Signing.PublicKey(x963Representation: bytes)) != nil
        case .p384: bytes.count == 97 && (try? P384.Signing.PublicKey(x963Representation: bytes)) != nil
        case .p521: bytes.count == 133 && (try? P521.Signing.PublicKey(x963Representation: bytes)) != nil
        case .rsa2048, .rsa3072, .rsa4096: RSAKeys.publicKey(algorithm, raw: bytes) != nil
        }
        guard valid else { throw VaultError(.invalidArgument, "These \(bytes.count) bytes are not a valid \(algorithm) public key") }
        self.algorithm = algorithm
        self.rawRepresentation = bytes
    }

    /// A public key from a DER SubjectPublicKeyInfo.
    ///
    /// - Parameters:
    ///   - derRepresentation: The SubjectPublicKeyInfo.
    ///   - purpose: What the key is for; P-256 keys serve both, so this
    ///     picks ``KeyAlgorithm/p256`` or ``KeyAlgorithm/p256Agreement``.
    /// - Throws: ``VaultError`` `invalidArgument` for anything else, or a key
    ///   of the other purpose (an Ed25519 key given for key agreement).
    public init(derRepresentation: some Collection<UInt8>, purpose: KeyAlgorithm.Purpose) throws(VaultError) {
        let der = Array(derRepresentation)
        let parsed: (KeyAlgorithm, [UInt8])? =
            if let key = try? Curve25519.Signing.PublicKey(derRepresentation: der) { (.ed25519, Array(key.rawRepresentation)) }
            else if let key = try? Curve25519.KeyAgreement.PublicKey(derRepresentation: der) { (.x25519, Array(key.rawRepresentation)) }
            else if let key = try? P256.Signing.PublicKey(derRepresentation: der) {
                (purpose == .signing ? .p256 : .p256Agreement, Array(key.x963Representation))
            }
            else if let key = try? P384.Signing.PublicKey(derRepresentation: der) { (.p384, Array(key.x963Representation)) }
            else if let key = try? P521.Signing.PublicKey(derRepresentation: der) { (.p521, Array(key.x963Representation)) }
            else if let key = try? _RSA.Signing.PublicKey(derRepresentation: der), let algorithm = KeyAlgorithm.rsa(bits: key.keySizeInBits) {
                (algorithm, Array(key.pkcs1DERRepresentation))
            } else { nil }
        guard let (algorithm, raw) = parsed else {
            throw VaultError(.invalidArgument, "Not an Ed25519, X25519, P-256, P-384, P-521 or RSA (2048, 3072, 4096 bits) public key (SubjectPublicKeyInfo)")
        }
        guard algorithm.purpose == purpose else {
            throw VaultError(.invalidArgument, "This is an \(algorithm) public key; a key for \(purpose == .signing ? "signing" : "key agreement") is needed")
        }
        try self.init(algorithm: algorithm, rawRepresentation: raw)
    }

    /// A public key from a PEM `PUBLIC KEY` block (SubjectPublicKeyInfo),
    /// as `openssl pkey -pubout` writes.
    ///
    /// - Parameters:
    ///   - pemRepresentation: The PEM text.
    ///   - purpose: See ``init(derRepresentation:purpose:)``.
    /// - Throws: ``VaultError`` `invalidArgument`.
    public init(pemRepresentation: String, purpose: KeyAlgorithm.Purpose) throws(VaultError) {
        guard let document = try? PEMDocument(pemString: pemRepresentation), document.discriminator == "PUBLIC KEY" else {
            throw VaultError(.invalidArgument, "Not a PEM PUBLIC KEY block (SubjectPublicKeyInfo)")
        }
        try self.init(derRepresentation: document.derBytes, purpose: purpose)
    }

    /// The DER SubjectPublicKeyInfo (RFC 5280; RFC 8410 for the 25519 keys).
    public var derRepresentation: [UInt8] {
        switch algorithm {
        case .ed25519: Array((try! Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)).derRepresentation)  // try!: validated for its algorithm when this key was made
        case .x25519: Array((try! Curve25519.KeyAgreement.PublicKey(rawRepresentation: rawRepresentation)).derRepresentation)  // try!: validated for its algorithm when this key was made
        case .p256, .p256Agreement: Array((try! P256.Signing.PublicKey(x963Representation: rawRepresentation)).derRepresentation)  // try!: validated for its algorithm when this key was made
        case .p384: Array((try! P384.Signing.PublicKey(x963Representation: rawRepresentation)).derRepresentation)  // try!: validated for its algorithm when this key was made
        case .p521: Array((try! P521.Signing.PublicKey(x963Representation: rawRepresentation)).derRepresentation)  // try!: validated for its algorithm when this key was made
        case .rsa2048, .rsa3072, .rsa4096: Array(RSAKeys.publicKey(algorithm, raw: rawRepresentation)!.derRepresentation)  // !: validated for its algorithm when this key was made
        }
    }

    /// ``derRepresentation`` as a PEM `PUBLIC KEY` block.
    public var pemRepresentation: String {
        PEMDocument(type: "PUBLIC KEY", derBytes: derRepresentation).pemString + "\n"
    }

    /// The OpenSSH public key line (`ssh-ed25519 AAAA… comment`), as in
    /// `authorized_keys`.
    ///
    /// - Parameter comment: Appended after a space when given.
    /// - Returns: The line, without a newline.
    /// - Throws: ``VaultError`` `invalidArgument` for key-agreement keys,
    ///   which OpenSSH has no format for.
    public func openSSHRepresentation(comment: String? = nil) throws(VaultError) -> String {
        guard let blob = SSHKeyEncoding.publicKeyBlob(self) else {
            throw VaultError(.invalidArgument, "\(algorithm) keys are for key agreement; OpenSSH has no format for them (use pem or raw)")
        }
        let line = SSHKeyEncoding.keyType(algorithm)! + " " + Data(blob).base64EncodedString()
        guard let comment, !comment.isEmpty else { return line }
        return line + " " + String(comment.map { $0.isNewline ? " " : $0 })
    }

    /// `SHA256:` and the unpadded base64 SHA-256 of the OpenSSH key blob, as
    /// `ssh-keygen -l` prints, for signing keys; of the SubjectPublicKeyInfo
    /// for key-agreement keys.
    public var fingerprint: String {
        let digest = SHA256.hash(data: SSHKeyEncoding.publicKeyBlob(self) ?? derRepresentation)
        let base64 = Data(digest).base64EncodedString()
        return "SHA256:" + String(base64.prefix(while: { $0 != "=" }))
    }

    /// Checks a signature made by the private key (any implementation's).
    ///
    /// - Parameters:
    ///   - signature: The signature.
    ///   - data: The signed data (for P-256, the message, not a digest).
    ///   - encoding: How `signature` is encoded; the algorithm's usual one
    ///     (Ed25519 raw, ECDSA DER) by default. RSA signatures have one
    ///     form (raw); checked as ``RSASignatureScheme/pkcs1SHA256``, see
    ///     ``isValidSignature(_:for:rsaScheme:)`` for the others.
    /// - Returns: Whether it verifies; `false` for key-agreement keys.
    public func isValidSignature(_ signature: some Collection<UInt8>, for data: some Collection<UInt8>, encoding: SignatureEncoding? = nil) -> Bool {
        let signature = Array(signature), data = Array(data)
        switch algorithm {
        case .ed25519:
            guard encoding != .der, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
            return key.isValidSignature(signature, for: data)
        case .p256:
            guard let key = try? P256.Signing.PublicKey(x963Representation: rawRepresentation),
                  let parsed = encoding == .raw
                    ? try? P256.Signing.ECDSASignature(rawRepresentation: signature)
                    : try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .p384:
            guard let key = try? P384.Signing.PublicKey(x963Representation: rawRepresentation),
                  let parsed = encoding == .raw
                    ? try? P384.Signing.ECDSASignature(rawRepresentation: signature)
                    : try? P384.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .p521:
            guard let key = try? P521.Signing.PublicKey(x963Representation: rawRepresentation),
                  let parsed = encoding == .raw
                    ? try? P521.Signing.ECDSASignature(rawRepresentation: signature)
                    : try? P521.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .rsa2048, .rsa3072, .rsa4096:
            return encoding != .der && isValidSignature(signature, for: data, rsaScheme: .pkcs1SHA256)
        case .x25519, .p256Agreement:
            return false
        }
    }

    /// Checks an RSA signature made with `rsaScheme`.
    ///
    /// - Parameters:
    ///   - signature: The signature, as long as the modulus.
    ///   - data: The signed message (hashed here).
    ///   - rsaScheme: The padding and hash it was made with; SHA-1
    ///     (``RSASignatureScheme/pkcs1SHA1``) only when the caller names it,
    ///     since no other check ever accepts it.
    /// - Returns: Whether it verifies; `false` for keys that are not RSA.
    public func isValidSignature(_ signature: some Collection<UInt8>, for data: some Collection<UInt8>, rsaScheme: RSASignatureScheme) -> Bool {
        guard let key = RSAKeys.publicKey(algorithm, raw: rawRepresentation) else { return false }
        return RSAKeys.isValid(Array(signature), for: Array(data), by: key, scheme: rsaScheme)
    }

    /// Encrypts to this key with ECIES (see ``VaultKeys/decrypt(_:withKey:service:operationPrompt:context:)``
    /// for the exact construction). Needs no vault and never prompts.
    ///
    /// - Parameter plaintext: What to encrypt.
    /// - Returns: ephemeral public key ‖ ciphertext ‖ 16-byte tag.
    /// - Throws: ``VaultError`` `invalidArgument` for signing keys.
    public func encrypt(_ plaintext: some Collection<UInt8>) throws(VaultError) -> [UInt8] {
        do {
            switch algorithm {
            case .x25519:
                let ephemeral = Curve25519.KeyAgreement.PrivateKey()
                let secret = try ephemeral.sharedSecretFromKeyAgreement(with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: rawRepresentation))
                return try VaultError.sealing { () throws(CryptoFailure) in try ECIES.seal(plaintext, sharedSecret: secret, ephemeralPublicKey: Array(ephemeral.publicKey.rawRepresentation)) }
            case .p256Agreement:
                let ephemeral = P256.KeyAgreement.PrivateKey()
                let secret = try ephemeral.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: rawRepresentation))
                return try VaultError.sealing { () throws(CryptoFailure) in try ECIES.seal(plaintext, sharedSecret: secret, ephemeralPublicKey: Array(ephemeral.publicKey.x963Representation)) }
            case .ed25519, .p256, .p384, .p521, .rsa2048, .rsa3072, .rsa4096:
                throw VaultError(.invalidArgument, "\(algorithm) keys only sign; encrypt to an x25519 or p256-agreement key")
            }
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.invalidArgument, "Cannot encrypt to this key: \(error)")
        }
    }

    public var description: String { "\(algorithm) public key \(fingerprint)" }
}
