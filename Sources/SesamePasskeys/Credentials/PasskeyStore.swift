import Sesame

/// Where passkeys are kept and used: the vault (``VaultPasskeyStore``), or
/// a test's memory. The CTAP2 layer decides what a request means; the store
/// decides who may use a key, through the key's access control (SPEC P1).
///
/// One ceremony is one verification: ``verifyOwner(for:reason:context:)``
/// asks the owner once (the finger, or the login password) and authorises
/// `context` for every key use of that ceremony, so making a credential,
/// signing with it and reading an extension's secret do not ask again. A call
/// given a context that is not authorised asks the owner itself.
///
/// Methods throw `VaultError` or `AuthenticationError` as the vault does;
/// the CTAP2 layer maps them to CTAP status codes. A cancelled task (CTAPHID
/// CANCEL) ends a waiting prompt (SPEC P3).
public protocol PasskeyStore: Sendable {
    /// Asks the owner, showing `reason` ("Sign in to example.com"), and
    /// authorises `context` for the uses that follow. Failures count in the
    /// one attempt gate (SPEC P3, E5).
    func verifyOwner(for relyingPartyID: String, reason: String, context: AuthenticationContext) async throws

    /// Makes a credential: its key pair inside the store, its id sealed.
    ///
    /// - Parameters:
    ///   - creation: What was asked for, with the extensions' state.
    ///   - secrets: What extensions keep secret with it (hmac-secret's
    ///     CredRandoms), by extension identifier, each one of
    ///     `creation.extensions`: kept under the key's access control,
    ///     never in the credential's facts.
    ///   - reason: What the owner is told if asked.
    ///   - context: The ceremony's context.
    func makeCredential(_ creation: PasskeyCreation, secrets: [String: [UInt8]], reason: String, context: AuthenticationContext) async throws
        -> PasskeyCredential

    /// The credentials of `relyingPartyID` among `ids` (the client's
    /// `allowList`), in the list's order; ids this store did not issue, or
    /// issued for another relying party, are left out. Never prompts.
    func credentials(relyingPartyID: String, ids: [[UInt8]]) async throws -> [PasskeyCredential]

    /// The discoverable credentials, of one relying party or of all,
    /// newest first. Never prompts.
    func discoverableCredentials(relyingPartyID: String?) async throws -> [PasskeyCredential]

    /// Advances the credential's signature counter and returns the value
    /// the next signature carries. It is taken before the data is signed,
    /// so signatures made at once (several processes, several hosts) never
    /// carry the same value, and each is higher than the last (SPEC P4).
    /// Never prompts.
    func nextSignatureCount(of credential: PasskeyCredential) async throws -> UInt32

    /// Signs `data` (authenticator data ‖ client data hash, whose counter
    /// ``nextSignatureCount(of:)`` gave) with the credential's key; returns
    /// the signature (ES256: DER; EdDSA: raw).
    func sign(_ data: [UInt8], with credential: PasskeyCredential, reason: String, context: AuthenticationContext) async throws -> [UInt8]

    /// The secret the extension `extensionIdentifier` keeps with the
    /// credential, as ``makeCredential(_:secrets:reason:context:)`` was
    /// given it. Under the key's access control, as signing is.
    func secret(of credential: PasskeyCredential, for extensionIdentifier: String, reason: String, context: AuthenticationContext)
        async throws -> [UInt8]

    /// Deletes the credential and its key. Never prompts.
    func delete(_ credential: PasskeyCredential) async throws
}
