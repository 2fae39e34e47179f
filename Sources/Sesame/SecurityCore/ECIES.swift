import Crypto

/// Public-key encryption to a key-agreement key (SPEC D7): Apple's
/// `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`, so that data sealed
/// to a Secure Enclave P-256 key and to a Sesame key have the same shape.
///
/// - ciphertext = E ‖ C ‖ T, where E is a fresh ephemeral public key (P-256:
///   65-byte uncompressed X9.63 point; X25519: its 32 bytes), C the
///   AES-GCM ciphertext (as long as the plaintext) and T its 16-byte tag;
/// - Z = ECDH(ephemeral private key, recipient public key) (for P-256 the
///   cofactor is 1, so cofactor ECDH is plain ECDH);
/// - K ‖ IV = ANSI X9.63 KDF with SHA-256 over Z, shared info E, 32 bytes:
///   K is the AES-128 key, IV the 16-byte GCM nonce ("variable IV");
/// - no associated data.
///
/// X25519 has no Apple counterpart; Sesame uses the same construction with
/// the 32-byte X25519 public key as E. This is the only AES-GCM in Sesame
/// besides ``Envelope``: it is a public format, not a record at rest.
enum ECIES {
    static let tagLength = 16

    /// Encrypts `plaintext` with the key and IV derived from `sharedSecret`.
    ///
    /// - Returns: E ‖ C ‖ T.
    static func seal(_ plaintext: some Collection<UInt8>, sharedSecret: SharedSecret, ephemeralPublicKey: [UInt8]) throws(CryptoFailure) -> [UInt8] {
        let (key, nonce) = keyAndNonce(sharedSecret, ephemeralPublicKey: ephemeralPublicKey)
        do {
            let box = try AES.GCM.seal(Array(plaintext), using: key, nonce: nonce)
            return ephemeralPublicKey + Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw CryptoFailure(description: "AES-GCM failed: \(error)")
        }
    }

    /// Decrypts C ‖ T.
    ///
    /// - Returns: The plaintext, or `nil` when the tag does not verify (a
    ///   wrong key, or changed bytes).
    static func open(_ ciphertextAndTag: ArraySlice<UInt8>, sharedSecret: SharedSecret, ephemeralPublicKey: [UInt8]) -> [UInt8]? {
        guard ciphertextAndTag.count >= tagLength else { return nil }
        let (key, nonce) = keyAndNonce(sharedSecret, ephemeralPublicKey: ephemeralPublicKey)
        let split = ciphertextAndTag.endIndex - tagLength
        guard let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertextAndTag[..<split], tag: ciphertextAndTag[split...]),
              let plaintext = try? AES.GCM.open(box, using: key) else { return nil }
        return Array(plaintext)
    }

    private static func keyAndNonce(_ sharedSecret: SharedSecret, ephemeralPublicKey: [UInt8]) -> (SymmetricKey, AES.GCM.Nonce) {
        let derived = sharedSecret.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: ephemeralPublicKey, outputByteCount: 32)
        let bytes = derived.withUnsafeBytes { Array($0) }
        // 16 bytes is a valid GCM nonce (GHASH-derived counter), as Apple uses.
        return (SymmetricKey(data: bytes[0..<16]), try! AES.GCM.Nonce(data: bytes[16..<32]))  // try!: always 16 bytes, a valid nonce length
    }
}
