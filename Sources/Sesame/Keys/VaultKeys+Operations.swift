import Crypto

/// Using a protected key (SPEC D7): each operation first enforces the key's
/// stored constraints (SPEC D8: lifetime, confirmation), then runs its access
/// control as reading an item does (D1 lockout first, D3 a context
/// authorised for that very operation, D5 enrolment binding), then uses the
/// private key inside the vault and drops it.
extension VaultKeys {
    /// Signs `data` with a signing key (SPEC A12 `useKeySign`).
    ///
    /// Ed25519 signs the message itself (RFC 8032); P-256 signs its SHA-256
    /// (ECDSA, FIPS 186-4), as `SecKeyCreateSignature` with
    /// `ecdsaSignatureMessageX962SHA256` does; P-384 its SHA-384 and P-521
    /// its SHA-512 (RFC 5656 §6.2.1). RSA keys sign with PKCS#1 v1.5 over
    /// SHA-256 (`rsa-sha2-256`); ``sign(_:withKey:service:rsaScheme:operationPrompt:context:)``
    /// picks another scheme. OpenSSL, OpenSSH and any other implementation
    /// verify the result.
    ///
    /// - Parameters:
    ///   - data: The message.
    ///   - name: The key's name.
    ///   - service: The key's service.
    ///   - encoding: Ed25519 and RSA: ``SignatureEncoding/raw`` only. ECDSA:
    ///     ``SignatureEncoding/der`` (the default) or ``SignatureEncoding/raw``.
    ///   - operationPrompt: Why, shown on the prompt.
    ///   - context: Authorised for ``AccessControlOperation/useKeySign`` (no
    ///     prompt; an authorisation for another operation does not count), or
    ///     one to prompt on.
    /// - Returns: The signature.
    /// - Throws: ``VaultError`` with `itemNotFound` (also a key past its
    ///   lifetime, deleted then; SPEC D8), `notAvailable` (also a lifetime
    ///   judged by a clock set back), `userCanceled` / `interactionNotAllowed`
    ///   (also a confirm-each-use key not confirmed), `invalidArgument` (not a
    ///   signing key, an encoding the algorithm lacks), `userCanceled`,
    ///   `authFailed`, `interactionNotAllowed`, `notAvailable`,
    ///   `itemInvalidated`, `tampered`, `ioError`.
    public func sign(
        _ data: [UInt8], withKey name: String, service: String, encoding: SignatureEncoding? = nil,
        operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> [UInt8] {
        try await signing(data, withKey: name, service: service, encoding: encoding, rsaScheme: nil, operationPrompt: operationPrompt, context: context)
    }

    /// Both signing entry points: checks before anyone is prompted, then the
    /// constraints, the access control and the signature.
    func signing(
        _ data: [UInt8], withKey name: String, service: String, encoding: SignatureEncoding?, rsaScheme: RSASignatureScheme?,
        operationPrompt: String, context: AuthenticationContext?
    ) async throws(VaultError) -> [UInt8] {
        let row = try await vault.rows.verifiedRow(table: "key", service: service, account: name)
        let algorithm = try Self.algorithm(of: row, for: .signing)
        let isRSA = algorithm.rsaBits != nil
        guard rsaScheme == nil || isRSA else {
            throw VaultError(.invalidArgument, "\(row.name) is an \(algorithm) key; an RSA signature scheme applies to RSA keys only")
        }
        let encoding = encoding ?? (algorithm == .ed25519 || isRSA ? .raw : .der)
        guard (algorithm != .ed25519 && !isRSA) || encoding == .raw else {
            throw VaultError(.invalidArgument, "\(algorithm) signatures have one form (raw); DER applies to ECDSA keys")
        }
        if rsaScheme == .pkcs1SHA1 {
            // Here, not in an agent, so that no process signs SHA-1 with an unmarked key (SPEC D8); before any prompt.
            guard try KeyConstraintsRecord.open(row, key: vault.subkeys.constraintsKey)?.constraints.allowsSHA1Signatures == true else {
                throw VaultError(.invalidArgument, "\(row.name) is not marked for SHA-1 signatures (ssh-rsa), which are broken; "
                                 + "it signs rsa-sha2-256 and rsa-sha2-512. Only a key created or imported with the mark "
                                 + "(KeyConstraints.allowsSHA1Signatures; sesame key create/import --allow-sha1) signs SHA-1")
            }
        }
        try await enforceConstraints(of: row, prompt: operationPrompt, context: context)
        let key = try await privateKey(row, algorithm: algorithm, operation: .useKeySign, prompt: operationPrompt, context: context)
        return try key.sign(data, encoding: encoding, rsaScheme: rsaScheme ?? .pkcs1SHA256)
    }

    /// Decrypts what was encrypted to a key-agreement key's public key
    /// (SPEC A12 `useKeyDecrypt`): ``PublicKey/encrypt(_:)``, or on Apple
    /// platforms `SecKeyCreateEncryptedData` with
    /// `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`.
    ///
    /// The construction: ciphertext = E ‖ C ‖ T with E the sender's
    /// ephemeral public key (P-256: 65-byte X9.63 point; X25519: 32 bytes);
    /// Z = ECDH(this key, E); K ‖ IV = X9.63 KDF (SHA-256, shared info E) of
    /// Z, 32 bytes; C ‖ T = AES-128-GCM(K, IV), 16-byte tag, no associated data.
    ///
    /// - Parameters:
    ///   - ciphertext: E ‖ C ‖ T.
    ///   - name: The key's name.
    ///   - service: The key's service.
    ///   - operationPrompt: Why, shown on the prompt.
    ///   - context: Authorised for ``AccessControlOperation/useKeyDecrypt``, or one to prompt on.
    /// - Returns: The plaintext; wiped when released.
    /// - Throws: ``VaultError`` as ``sign(_:withKey:service:encoding:operationPrompt:context:)``;
    ///   `authFailed` when the ciphertext does not decrypt with this key
    ///   (another key's, or changed bytes).
    public func decrypt(
        _ ciphertext: [UInt8], withKey name: String, service: String, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> SecretBytes {
        let row = try await vault.rows.verifiedRow(table: "key", service: service, account: name)
        let algorithm = try Self.algorithm(of: row, for: .keyAgreement)
        try await enforceConstraints(of: row, prompt: operationPrompt, context: context)
        let key = try await privateKey(row, algorithm: algorithm, operation: .useKeyDecrypt, prompt: operationPrompt, context: context)
        guard var plaintext = try key.decrypt(ciphertext) else {
            throw VaultError(.authFailed, "The ciphertext does not decrypt with \(row.name): it was made for another key, or changed")
        }
        defer { wipe(&plaintext) }
        return SecretBytes(plaintext)
    }

    /// The raw shared secret of a key-agreement key and `peer` (SPEC A12
    /// `useKeyKeyExchange`): the X25519 output (RFC 7748) or the P-256 ECDH
    /// x-coordinate, as `openssl pkeyutl -derive` and
    /// `SecKeyCopyKeyExchangeResult` give. Feed it to a KDF before use.
    ///
    /// - Parameters:
    ///   - name: The key's name.
    ///   - service: The key's service.
    ///   - peer: The other side's public key, of the same algorithm.
    ///   - operationPrompt: Why, shown on the prompt.
    ///   - context: Authorised for ``AccessControlOperation/useKeyKeyExchange``, or one to prompt on.
    /// - Returns: The shared secret; wiped when released.
    /// - Throws: ``VaultError`` as ``sign(_:withKey:service:encoding:operationPrompt:context:)``;
    ///   `invalidArgument` for a peer key of another algorithm.
    public func sharedSecret(
        withKey name: String, service: String, peer: PublicKey, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> SecretBytes {
        let row = try await vault.rows.verifiedRow(table: "key", service: service, account: name)
        let algorithm = try Self.algorithm(of: row, for: .keyAgreement)
        guard peer.algorithm == algorithm else {
            throw VaultError(.invalidArgument, "\(row.name) is \(algorithm); the peer key is \(peer.algorithm)")
        }
        try await enforceConstraints(of: row, prompt: operationPrompt, context: context)
        let key = try await privateKey(row, algorithm: algorithm, operation: .useKeyKeyExchange, prompt: operationPrompt, context: context)
        let secret = try key.sharedSecret(with: peer)
        return secret.withUnsafeBytes { SecretBytes($0) }
    }

    // MARK: Helpers

    /// The row's algorithm, checked for `purpose` before anyone is prompted.
    private static func algorithm(of row: ItemRow, for purpose: KeyAlgorithm.Purpose) throws(VaultError) -> KeyAlgorithm {
        guard let raw = row.key?.algorithm, let algorithm = KeyAlgorithm(rawValue: raw) else {
            throw VaultError(.tampered, "\(row.name) has an algorithm this Sesame does not know")
        }
        guard algorithm.purpose == purpose else {
            throw VaultError(.invalidArgument, algorithm.purpose == .signing
                ? "\(row.name) is an \(algorithm) key: it signs, and cannot decrypt or agree on a secret"
                : "\(row.name) is an \(algorithm) key: it decrypts and agrees on secrets, and cannot sign")
        }
        return algorithm
    }

    /// Authenticates for the key's access control and `operation`, then
    /// opens its sealed private key.
    private func privateKey(
        _ row: ItemRow, algorithm: KeyAlgorithm, operation: AccessControlOperation, prompt: String, context: AuthenticationContext?
    ) async throws(VaultError) -> PrivateKeyMaterial {
        let rowKey = try await vault.rows.unlockItemKey(row, operation: operation, prompt: prompt, context: context)
        var stored = try vault.rows.open(row.ciphertext, key: rowKey, associatedData: row.associatedData, what: "the private key of \(row.name)")
        defer { wipe(&stored) }
        let key = try PrivateKeyMaterial(algorithm: algorithm, stored: stored)
        guard key.publicKey.rawRepresentation == row.key?.publicKey else {
            throw VaultError(.tampered, "The private key of \(row.name) does not match its public key")
        }
        return key
    }
}
