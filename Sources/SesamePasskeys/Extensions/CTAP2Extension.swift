import Crypto

/// A CTAP extension (CTAP 2.1 §12): what it does at makeCredential and at
/// getAssertion, so the commands handle every extension the same way and
/// name none. Each is one file of `Extensions/`, listed once in
/// ``CTAP2Extensions/all``.
///
/// Inputs are parsed as hostile (SPEC P5) and before the owner is asked:
/// a malformed input is answered with its CTAP error and prompts no one.
/// What an extension keeps with a credential is its *state*, bytes in an
/// encoding of its own (``PasskeyCreation/extensions``): once written to a
/// vault, that encoding is frozen. What must stay secret (hmac-secret's
/// CredRandoms) is never state: it is the credential's *secret*, which the
/// store keeps under the key's access control (SPEC P1, D7).
protocol CTAP2Extension: Sendable {
    /// The extension identifier: its key in requests' and authenticator
    /// data's extension maps, in getInfo's list, and in a credential's
    /// ``PasskeyCreation/extensions``.
    var identifier: String { get }

    /// makeCredential (§6.1.2 step 12): its input, the value under its
    /// identifier. Returns what to keep with the new credential and what to
    /// answer, or `nil` when the input enables nothing.
    func register(_ input: CBORValue) throws(CTAP2Status) -> CTAP2ExtensionRegistration?

    /// getAssertion (§6.2.2 step 8): its input, parsed before the owner is
    /// asked; the result gives each credential's output once the owner was
    /// (getNextAssertion's too). `nil` when there is nothing to answer.
    func assertionRequest(_ input: CBORValue, offer: CTAP2ExtensionOffer) throws(CTAP2Status) -> (any CTAP2ExtensionAssertion)?

    /// Whether a getAssertion may use, or even name, a credential with this
    /// `state` (`nil`: not enabled for it).
    ///
    /// - Parameters:
    ///   - userVerificationAsked: The request asked for user verification
    ///     (`uv`, or a pinUvAuthParam).
    ///   - credentialNamed: The client named credentials (an allowList).
    func permits(state: [UInt8]?, userVerificationAsked: Bool, credentialNamed: Bool) -> Bool

    /// What it adds to a credential in credentialManagement's
    /// enumerateCredentials answer (§6.8.3), by that answer's keys.
    func credentialManagementFields(state: [UInt8]?) -> [CBORValue: CBORValue]
}

extension CTAP2Extension {
    /// No getAssertion input: anything sent is ignored.
    func assertionRequest(_ input: CBORValue, offer: CTAP2ExtensionOffer) throws(CTAP2Status) -> (any CTAP2ExtensionAssertion)? { nil }

    /// No restriction.
    func permits(state: [UInt8]?, userVerificationAsked: Bool, credentialNamed: Bool) -> Bool { true }

    /// Nothing.
    func credentialManagementFields(state: [UInt8]?) -> [CBORValue: CBORValue] { [:] }
}

/// What an extension decided at makeCredential.
struct CTAP2ExtensionRegistration {
    /// What the credential keeps in its record (``PasskeyCreation/extensions``).
    var state: [UInt8]
    /// What the store keeps under the key's access control, if anything.
    var secret: [UInt8]?
    /// Its output in the new credential's authenticator data, if any.
    var output: CBORValue?
}

/// What the authenticator offers an extension's getAssertion input.
struct CTAP2ExtensionOffer {
    /// The key agreement key of the PIN/UV auth protocols (§6.5.6): the
    /// platform's shared secret with the authenticator.
    let keyAgreementKey: P256.KeyAgreement.PrivateKey
    /// Whether the assertion carries UP and UV, i.e. an act of the owner
    /// (a client's pre-flight with `up` false carries neither).
    let userPresence: Bool
}

/// An extension's parsed getAssertion input.
protocol CTAP2ExtensionAssertion: Sendable {
    /// The output for one credential, after the owner was verified.
    ///
    /// - Parameters:
    ///   - state: The credential's state for this extension; `nil` when it
    ///     is not enabled for it.
    ///   - secret: Reads the credential's secret for this extension, under
    ///     the ceremony's verification.
    /// - Returns: The output in authenticator data, or `nil` for none.
    func output(state: [UInt8]?, secret: @Sendable () async throws -> [UInt8]) async throws -> CBORValue?
}
