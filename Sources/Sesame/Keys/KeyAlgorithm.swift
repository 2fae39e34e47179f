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

    /// What a key can do.
    public enum Purpose: String, Sendable, Hashable, Codable {
        /// ``Vault/sign(_:withKey:service:encoding:operationPrompt:context:)``.
        case signing
        /// ``Vault/sharedSecret(withKey:service:peer:operationPrompt:context:)``
        /// and ``Vault/decrypt(_:withKey:service:operationPrompt:context:)``.
        case keyAgreement
    }

    /// What this key can do; a key is never used for the other purpose.
    public var purpose: Purpose {
        switch self {
        case .ed25519, .p256: .signing
        case .x25519, .p256Agreement: .keyAgreement
        }
    }

    /// Whether Apple's Secure Enclave can hold such a key (only P-256 keys).
    public var isSupportedBySecureEnclave: Bool {
        self == .p256 || self == .p256Agreement
    }

    public var description: String { rawValue }
}
