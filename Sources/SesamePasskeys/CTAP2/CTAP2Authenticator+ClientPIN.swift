#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Sesame

extension CTAP2Authenticator {
    /// What getUVRetries answers (§6.5.5.3): the store cannot tell how many
    /// attempts remain, so this is the number the attempt gate allows before
    /// lockout (SPEC E5), the most there can be.
    static let userVerificationRetries = AuthenticationContext.failuresBeforeLockout

    /// authenticatorClientPIN (CTAP 2.1 §6.5.5). The authenticator has no
    /// PIN of its own: its subcommands for a PIN answer
    /// `CTAP2_ERR_PIN_NOT_SET`, and setPIN `CTAP2_ERR_NOT_ALLOWED`.
    func clientPIN(_ parameters: CTAP2Parameters, from requester: CTAPHIDRequester?, status: @Sendable (CTAP2Keepalive) -> Void)
        async throws -> CBORValue?
    {
        let subCommand = try parameters.required(2, \.intValue)
        switch subCommand {
        case 0x02:  // getKeyAgreement
            _ = try PinUvAuthProtocol(number: try parameters.optional(1, \.intValue))
            return .map([1: PinUvAuthProtocol.coseKey(of: keyAgreementKey)])
        case 0x06:
            return try await pinUvAuthTokenUsingUV(parameters, from: requester, status: status)
        case 0x07:  // getUVRetries
            return .map([5: .int(Self.userVerificationRetries)])
        case 0x01, 0x04, 0x05, 0x09:  // getPINRetries, changePIN, getPINToken, getPinUvAuthTokenUsingPinWithPermissions
            throw CTAP2Status.pinNotSet
        case 0x03:  // setPIN: user verification is the owner's finger or login password (SPEC P1)
            throw CTAP2Status.notAllowed
        default:
            throw CTAP2Status.invalidSubcommand
        }
    }

    /// getPinUvAuthTokenUsingUvWithPermissions (§6.5.5.7.3): verifies the
    /// owner for the relying party named, then issues a fresh token
    /// carrying the authorised context, encrypted with the shared secret.
    private func pinUvAuthTokenUsingUV(
        _ parameters: CTAP2Parameters, from requester: CTAPHIDRequester?, status: @Sendable (CTAP2Keepalive) -> Void
    ) async throws
        -> CBORValue
    {
        let pinUvAuthProtocol = try PinUvAuthProtocol(number: try parameters.optional(1, \.intValue))
        let platformKey = try parameters.requiredMap(3)
        let permissions = try parameters.required(9, \.intValue)
        let relyingPartyID = try parameters.optional(0x0A, \.textValue).map { id throws(CTAP2Status) in try Self.relyingPartyID(id) }
        guard permissions > 0 else { throw CTAP2Status.invalidParameter }
        let granted = PinUvAuthToken.Permission.makeCredential.rawValue | PinUvAuthToken.Permission.getAssertion.rawValue
            | PinUvAuthToken.Permission.credentialManagement.rawValue
        // Bio enrollment, large blobs and authenticator configuration are not offered.
        guard permissions & ~granted == 0 else { throw CTAP2Status.unauthorizedPermission }
        if permissions & (PinUvAuthToken.Permission.makeCredential.rawValue | PinUvAuthToken.Permission.getAssertion.rawValue) != 0,
            relyingPartyID == nil
        {
            throw CTAP2Status.missingParameter
        }
        let sharedSecret = try pinUvAuthProtocol.sharedSecret(
            platformKey: .map(platformKey.map), authenticatorKey: keyAgreementKey)
        if let old = token {  // §6.5.5.7: a new token replaces the old
            old.context.invalidate()
            token = nil
        }
        let reason = CTAPHIDRequester.reason(Self.tokenReason(permissions: permissions, relyingPartyID: relyingPartyID), askedBy: requester)
        let context: AuthenticationContext
        do {
            context = try await verifyOwner(for: relyingPartyID ?? "", reason: reason, status: status)
        } catch {
            keyAgreementKey = P256.KeyAgreement.PrivateKey()  // §6.5.5.7: regenerate after a failed verification
            throw error
        }
        let value = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let encrypted: [UInt8]
        do {
            encrypted = try pinUvAuthProtocol.encrypt(value, sharedSecret: sharedSecret)
        } catch {
            context.invalidate()
            throw error
        }
        token?.context.invalidate()  // one issued meanwhile by another request
        token = PinUvAuthToken(
            value: value, pinUvAuthProtocol: pinUvAuthProtocol, permissions: permissions, relyingPartyID: relyingPartyID,
            issued: now(), context: context)
        return .map([2: .bytes(encrypted)])
    }

    /// What the owner is asked to allow, in the words of the request the
    /// token is for: a browser registering a passkey asks for a token with
    /// the makeCredential permission alone, and the prompt must then say
    /// "create" (as the passkeys guide does), not "use".
    static func tokenReason(permissions: Int, relyingPartyID: String?) -> String {
        guard let relyingPartyID else { return "Manage your passkeys" }
        let create = permissions & PinUvAuthToken.Permission.makeCredential.rawValue != 0
        let signIn = permissions & PinUvAuthToken.Permission.getAssertion.rawValue != 0
        switch (create, signIn) {
        case (true, false): return "Create a passkey for \(relyingPartyID)"
        case (false, true): return "Sign in to \(relyingPartyID)"
        default: return "Use your passkeys for \(relyingPartyID)"
        }
    }
}
