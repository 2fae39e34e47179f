/// How a signature is written out.
public enum SignatureEncoding: String, Sendable, Hashable, Codable, CaseIterable {
    /// Ed25519's 64 bytes; for P-256, r‖s as two 32-byte big-endian numbers
    /// (JOSE, WebAuthn's raw form).
    case raw
    /// ASN.1 DER `ECDSA-Sig-Value` (X9.62): what OpenSSL and
    /// `SecKeyCreateSignature` give for P-256. Not defined for Ed25519.
    case der
}
