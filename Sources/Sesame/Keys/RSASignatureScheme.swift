/// How an RSA key signs (SPEC D7): the padding and the hash. The raw values
/// are the names OpenSSH gives the PKCS#1 v1.5 schemes and the CLI's
/// names for PSS; they are frozen.
///
/// SHA-1 (``pkcs1SHA1``, SSH's `ssh-rsa`) is refused for every key but one
/// marked for it (``KeyConstraints/allowsSHA1Signatures``), as
/// OpenSSH itself refuses it by default since 8.8: fail closed.
public enum RSASignatureScheme: String, Sendable, Hashable, Codable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2; RFC 8332 `rsa-sha2-256`).
    case pkcs1SHA256 = "rsa-sha2-256"
    /// RSASSA-PKCS1-v1_5 with SHA-512 (RFC 8332 `rsa-sha2-512`).
    case pkcs1SHA512 = "rsa-sha2-512"
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256, a 32-byte salt (RFC 8017 §8.1).
    case pssSHA256 = "rsa-pss-sha256"
    /// RSASSA-PSS with SHA-512, MGF1 with SHA-512, a 64-byte salt.
    case pssSHA512 = "rsa-pss-sha512"
    /// RSASSA-PKCS1-v1_5 with SHA-1 (RFC 4253 `ssh-rsa`): only by a key
    /// marked ``KeyConstraints/allowsSHA1Signatures``, for servers and
    /// clients that know nothing newer (OpenSSH 9.2's `ssh-add -T` tests an
    /// RSA key with it).
    case pkcs1SHA1 = "ssh-rsa"
}
