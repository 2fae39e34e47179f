/// What a relying party asks to be made: the values of CTAP2's
/// `authenticatorMakeCredential` that the store keeps.
public struct PasskeyCreation: Sendable, Hashable {
    /// The relying party id (a domain such as `example.com`).
    public var relyingPartyID: String
    /// The relying party's name for people, if it gave one.
    public var relyingPartyName: String?
    /// The user handle: the relying party's opaque id of the account (≤ 64 bytes).
    public var userHandle: [UInt8]
    /// The account's name (an e-mail address, say).
    public var userName: String?
    /// The account's name for display.
    public var userDisplayName: String?
    /// The signature algorithm.
    public var algorithm: PasskeyAlgorithm
    /// Whether the credential is discoverable (CTAP's `rk`): found by
    /// relying party alone, listed by `sesame passkey ls`.
    public var isDiscoverable: Bool
    /// Its `credProtect` level.
    public var protection: PasskeyProtection
    /// Whether the `hmac-secret` extension is enabled for it.
    public var hasHMACSecret: Bool

    /// - Parameters: see the properties.
    public init(
        relyingPartyID: String, relyingPartyName: String? = nil, userHandle: [UInt8], userName: String? = nil,
        userDisplayName: String? = nil, algorithm: PasskeyAlgorithm = .es256, isDiscoverable: Bool,
        protection: PasskeyProtection = .userVerificationOptional, hasHMACSecret: Bool = false
    ) {
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.algorithm = algorithm
        self.isDiscoverable = isDiscoverable
        self.protection = protection
        self.hasHMACSecret = hasHMACSecret
    }
}
