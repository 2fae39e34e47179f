import Crypto
import Sesame

/// hmac-secret (CTAP 2.1 §12.5), what WebAuthn's PRF uses: a credential
/// made with it keeps two random keys, its CredRandoms, and getAssertion
/// answers HMAC-SHA-256 of the salts the platform sends under one of them,
/// encrypted with the PIN/UV auth protocol's shared secret.
///
/// The CredRandoms are the credential's secret
/// (``PasskeyStore/secret(of:for:reason:context:)``), kept under the key's
/// access control; the state in its record says only that it is enabled.
public struct HMACSecretExtension: CTAP2Extension {
    /// Its extension identifier.
    public static let identifier = "hmac-secret"

    /// The state a credential with hmac-secret keeps: empty, its presence
    /// says it is enabled. Frozen: vaults keep it.
    public static let state: [UInt8] = []

    /// The secret's length: CredRandomWithUV ‖ CredRandomWithoutUV, 32 bytes
    /// each. Frozen: vaults keep it.
    public static let secretLength = 64

    /// Whether `creation` has hmac-secret.
    public static func isEnabled(for creation: PasskeyCreation) -> Bool {
        creation.extensions[identifier] != nil
    }

    var identifier: String { Self.identifier }

    /// `true` enables it, with two fresh CredRandoms; answered `true`.
    func register(_ input: CBORValue) throws(CTAP2Status) -> CTAP2ExtensionRegistration? {
        guard let enabled = input.boolValue else { throw .cborUnexpectedType }
        guard enabled else { return nil }
        let secret = SymmetricKey(size: .init(bitCount: Self.secretLength * 8)).withUnsafeBytes { Array($0) }
        return CTAP2ExtensionRegistration(state: Self.state, secret: secret, output: true)
    }

    /// The salts, checked by saltAuth before anything is derived. An
    /// output is given only with UP and UV set: a client's pre-flight (`up`
    /// false) gets none, since only an act of the owner makes a PRF output
    /// (SPEC P2), so one scan is never replayed into many.
    func assertionRequest(_ input: CBORValue, offer: CTAP2ExtensionOffer) throws(CTAP2Status) -> (any CTAP2ExtensionAssertion)? {
        let request = try HMACSecretRequest(try CTAP2Parameters(input), keyAgreementKey: offer.keyAgreementKey)
        return offer.userPresence ? request : nil
    }
}
