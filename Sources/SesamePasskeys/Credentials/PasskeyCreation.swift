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
    /// Each CTAP extension's state, by extension identifier: what the
    /// extension decided at makeCredential and reads at getAssertion, in
    /// its own frozen encoding (``CredProtectExtension/state(_:)``,
    /// ``HMACSecretExtension/state``). An extension absent here is not
    /// enabled for the credential. Never a secret: the store keeps those
    /// under the key's access control.
    public var extensions: [String: [UInt8]]

    /// - Parameters: see the properties.
    public init(
        relyingPartyID: String, relyingPartyName: String? = nil, userHandle: [UInt8], userName: String? = nil,
        userDisplayName: String? = nil, algorithm: PasskeyAlgorithm = .es256, isDiscoverable: Bool, extensions: [String: [UInt8]] = [:]
    ) {
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.algorithm = algorithm
        self.isDiscoverable = isDiscoverable
        self.extensions = extensions
    }
}
