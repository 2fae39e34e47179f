/// When a credential may be used or even named without user verification:
/// CTAP 2.1's `credProtect` extension (§12.1), stored with the credential.
public enum PasskeyProtection: Int, Sendable, Hashable, CaseIterable {
    /// `userVerificationOptional` (1): the default.
    case userVerificationOptional = 1
    /// `userVerificationOptionalWithCredentialIDList` (2): found without
    /// verification only when the client names its id.
    case userVerificationOptionalWithCredentialIDList = 2
    /// `userVerificationRequired` (3): never used, nor named, without it.
    case userVerificationRequired = 3
}
