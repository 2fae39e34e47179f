extension VaultKeys {
    /// Signs `data` with an RSA key and the scheme given (SPEC A12
    /// `useKeySign`, D7): PKCS#1 v1.5 with SHA-256 or SHA-512 (OpenSSH's
    /// `rsa-sha2-256` and `rsa-sha2-512`, RFC 8332) or PSS. SHA-1
    /// (``RSASignatureScheme/pkcs1SHA1``, `ssh-rsa`) only for a key marked
    /// ``KeyConstraints/allowsSHA1Signatures`` when it was created or
    /// imported; for any other key it is refused before anyone is
    /// asked. The key's constraints and access control are enforced exactly
    /// as ``sign(_:withKey:service:encoding:operationPrompt:context:)`` does.
    ///
    /// - Parameters:
    ///   - data: The message (hashed here).
    ///   - name: The key's name.
    ///   - service: The key's service.
    ///   - rsaScheme: The padding and hash.
    ///   - operationPrompt: Why, shown on the prompt.
    ///   - context: Authorised for ``AccessControlOperation/useKeySign``, or one to prompt on.
    /// - Returns: The signature, as long as the modulus.
    /// - Throws: ``VaultError`` as ``sign(_:withKey:service:encoding:operationPrompt:context:)``;
    ///   `invalidArgument` for a key that is not RSA, or SHA-1 asked of a
    ///   key not marked for it (both before any prompt).
    public func sign(
        _ data: [UInt8], withKey name: String, service: String, rsaScheme: RSASignatureScheme,
        operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> [UInt8] {
        try await signing(data, withKey: name, service: service, encoding: nil, rsaScheme: rsaScheme, operationPrompt: operationPrompt, context: context)
    }
}
