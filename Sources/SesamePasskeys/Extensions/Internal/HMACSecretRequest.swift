import Crypto
import Sesame

/// A getAssertion's `hmac-secret` input (CTAP 2.1 §12.5): the salts the
/// platform encrypted with the shared secret of its key agreement, checked
/// by saltAuth before anything is derived.
struct HMACSecretRequest: CTAP2ExtensionAssertion {
    let pinUvAuthProtocol: PinUvAuthProtocol
    let sharedSecret: [UInt8]
    /// One or two 32-byte salts.
    let salts: [[UInt8]]

    /// Parses and checks the extension's input map: keyAgreement (1),
    /// saltEnc (2), saltAuth (3), pinUvAuthProtocol (4, one when absent).
    init(_ input: CTAP2Parameters, keyAgreementKey: P256.KeyAgreement.PrivateKey) throws(CTAP2Status) {
        let platformKey = try input.requiredMap(1)
        let saltEnc = try input.required(2, \.bytesValue)
        let saltAuth = try input.required(3, \.bytesValue)
        pinUvAuthProtocol = try PinUvAuthProtocol(number: try input.optional(4, \.intValue) ?? 1)
        sharedSecret = try pinUvAuthProtocol.sharedSecret(platformKey: .map(platformKey.map), authenticatorKey: keyAgreementKey)
        guard pinUvAuthProtocol.verify(key: sharedSecret, message: saltEnc, signature: saltAuth) else { throw .pinAuthInvalid }
        let plain = try pinUvAuthProtocol.decrypt(saltEnc, sharedSecret: sharedSecret)
        guard plain.count == 32 || plain.count == 64 else { throw .invalidLength }
        salts = plain.count == 32 ? [plain] : [Array(plain[..<32]), Array(plain[32...])]
    }

    /// HMAC-SHA-256(CredRandom, salt1) [‖ HMAC-SHA-256(CredRandom, salt2)],
    /// encrypted with the shared secret.
    func output(credRandom: [UInt8]) throws(CTAP2Status) -> [UInt8] {
        let key = SymmetricKey(data: credRandom)
        let outputs = salts.flatMap { Array(HMAC<SHA256>.authenticationCode(for: $0, using: key)) }
        return try pinUvAuthProtocol.encrypt(outputs, sharedSecret: sharedSecret)
    }

    /// The output for a credential with hmac-secret; none for one without.
    /// CredRandomWithUV: an output is given only with UP and UV set
    /// (``HMACSecretExtension``'s assertionRequest).
    func output(state: [UInt8]?, secret: @Sendable () async throws -> [UInt8]) async throws -> CBORValue? {
        guard state != nil else { return nil }
        var credRandoms = try await secret()
        defer { wipe(&credRandoms) }
        guard credRandoms.count == HMACSecretExtension.secretLength else { throw CTAP2Status.other }
        return .bytes(try output(credRandom: Array(credRandoms[..<32])))
    }
}
