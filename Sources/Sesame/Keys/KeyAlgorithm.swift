/// What a protected key is for, and on which curve (SPEC D7).
///
/// The raw values are stored in the vault and printed by the CLI; they are
/// frozen.
public enum KeyAlgorithm: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Ed25519 signatures (RFC 8032): 64 raw bytes; OpenSSH's `ssh-ed25519`.
    case ed25519
    /// ECDSA over P-256 with SHA-256 (FIPS 186-4): DER (X9.62) or raw r‖s;
    /// OpenSSH's `ecdsa-sha2-nistp256`. The Secure Enclave's signing key.
    case p256
    /// X25519 key agreement (RFC 7748) and decryption (ECIES).
    case x25519
    /// ECDH over P-256 and decryption (ECIES): the Secure Enclave's
    /// key-agreement key.
    case p256Agreement = "p256-agreement"
    /// RSA with a 2048-bit modulus: PKCS#1 v1.5 signatures over SHA-256 or
    /// SHA-512 (OpenSSH's `rsa-sha2-256`, `rsa-sha2-512`), or PSS.
    case rsa2048 = "rsa-2048"
    /// RSA with a 3072-bit modulus (`ssh-keygen -t rsa`'s default size).
    case rsa3072 = "rsa-3072"
    /// RSA with a 4096-bit modulus.
    case rsa4096 = "rsa-4096"
    /// ECDSA over P-384 with SHA-384; OpenSSH's `ecdsa-sha2-nistp384`.
    case p384
    /// ECDSA over P-521 with SHA-512; OpenSSH's `ecdsa-sha2-nistp521`.
    case p521

    /// What a key can do.
    public enum Purpose: String, Sendable, Hashable, Codable {
        /// ``VaultKeys/sign(_:withKey:service:encoding:operationPrompt:context:)``.
        case signing
        /// ``VaultKeys/sharedSecret(withKey:service:peer:operationPrompt:context:)``
        /// and ``VaultKeys/decrypt(_:withKey:service:operationPrompt:context:)``.
        case keyAgreement
    }

    /// What this key can do; a key is never used for the other purpose.
    public var purpose: Purpose {
        switch self {
        case .ed25519, .p256, .p384, .p521, .rsa2048, .rsa3072, .rsa4096: .signing
        case .x25519, .p256Agreement: .keyAgreement
        }
    }

    /// Whether Apple's Secure Enclave can hold such a key (only P-256 keys).
    public var isSupportedBySecureEnclave: Bool {
        self == .p256 || self == .p256Agreement
    }

    /// The RSA modulus size in bits; `nil` for the elliptic-curve algorithms.
    public var rsaBits: Int? {
        switch self {
        case .rsa2048: 2048
        case .rsa3072: 3072
        case .rsa4096: 4096
        case .ed25519, .p256, .x25519, .p256Agreement, .p384, .p521: nil
        }
    }

    /// The RSA algorithm for a modulus of `bits`; `nil` for any other size
    /// (Sesame keeps 2048, 3072 and 4096-bit keys only).
    ///
    /// - Parameter bits: The modulus size.
    /// - Returns: The algorithm, or `nil`.
    public static func rsa(bits: Int) -> KeyAlgorithm? {
        allCases.first { $0.rsaBits == bits }
    }

    public var description: String { rawValue }
}
