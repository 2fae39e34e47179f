import Sesame
/// The HMAC hash a one-time password uses (RFC 6238 §1.2). The raw values
/// are the Key Uri Format's `algorithm=` spellings and part of the stored
/// form: frozen.
public enum OneTimePasswordAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// HMAC-SHA-1, the default, and the only one RFC 4226 defines.
    case sha1 = "SHA1"
    /// HMAC-SHA-256.
    case sha256 = "SHA256"
    /// HMAC-SHA-512.
    case sha512 = "SHA512"
}
