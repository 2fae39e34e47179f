#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

extension CTAP2Authenticator {
    /// authenticatorGetAssertion (CTAP 2.1 §6.2.2).
    ///
    /// A key is used only under its access control (SPEC P1): the owner is
    /// verified now, or was for the pinUvAuthToken presented. The
    /// verification comes before the answer, whether credentials were found
    /// or not: `CTAP2_ERR_NO_CREDENTIALS` never reaches a website without an
    /// act of the owner, so it cannot probe which accounts exist here.
    ///
    /// With `up` true the flags are UP and UV, and a token gives one such
    /// assertion (it is spent). With `up` false (a client's pre-flight,
    /// learning which of its credentials are here) the flags are neither UP
    /// nor UV, the token is not spent and extensions are told so (hmac-secret
    /// then gives no output): only an act of the owner makes a sign-in or a
    /// PRF output (SPEC P2), so one scan cannot be replayed into many.
    func getAssertion(_ parameters: CTAP2Parameters, from requester: CTAPHIDRequester?, status: @Sendable (CTAP2Keepalive) -> Void)
        async throws -> CBORValue
    {
        let relyingPartyID = try Self.relyingPartyID(try parameters.required(1, \.textValue))
        let clientDataHash = try parameters.clientDataHash(2)
        // An allowList with nothing usable finds nothing; only an absent one means the discoverable credentials.
        let allowList = try parameters.credentialIDs(3)
        let extensions = try parameters.optionalMap(4)
        let options = try parameters.optionalMap(5)
        if try options?.option("rk") != nil { throw CTAP2Status.unsupportedOption }
        let userPresence = try options?.option("up") ?? true
        let flags = userPresence ? AuthenticatorData.userPresent | AuthenticatorData.userVerified : 0
        let pinUvAuthParam = try parameters.optional(6, \.bytesValue)
        let pinUvAuthProtocol = try parameters.optional(7, \.intValue)
        let extensionRequests = try CTAP2Extensions.assertionRequests(
            extensions, offer: CTAP2ExtensionOffer(keyAgreementKey: keyAgreementKey, userPresence: userPresence))
        let userVerificationAsked = try options?.option("uv") == true || pinUvAuthParam != nil
        let found: [PasskeyCredential]
        if let allowList {
            found = allowList.isEmpty ? [] : try await store.credentials(relyingPartyID: relyingPartyID, ids: allowList)
        } else {
            found = try await store.discoverableCredentials(relyingPartyID: relyingPartyID)
        }
        let credentials = found.filter { credential in
            CTAP2Extensions.permit(credential, userVerificationAsked: userVerificationAsked, credentialNamed: allowList != nil)
        }

        let (ceremony, isTokens) = try await ceremony(
            pinUvAuthParam, protocolNumber: pinUvAuthProtocol, clientDataHash: clientDataHash, permission: .getAssertion,
            relyingPartyID: relyingPartyID, reason: CTAPHIDRequester.reason("Sign in to \(relyingPartyID)", askedBy: requester),
            requester: requester, spendsToken: userPresence, status: status)
        let end = { if !isTokens { ceremony.invalidate() } }
        guard let first = credentials.first else {
            end()
            throw CTAP2Status.noCredentials
        }
        let selecting = allowList == nil && credentials.count > 1
        if selecting {
            endAssertions()  // another requester's, which this one replaces
            pendingAssertions = PendingAssertions(
                requester: requester, credentials: Array(credentials.dropFirst()), relyingPartyID: relyingPartyID, clientDataHash: clientDataHash,
                extensionRequests: extensionRequests, flags: flags, context: ceremony, ownsContext: !isTokens, answered: now())
        }
        do {
            let response = try await assertion(
                first, relyingPartyID: relyingPartyID, clientDataHash: clientDataHash, extensionRequests: extensionRequests, flags: flags,
                context: ceremony, requester: requester, userDetails: selecting, numberOfCredentials: selecting ? credentials.count : nil)
            if !selecting { end() }
            return response
        } catch {
            endAssertions()
            end()
            throw error
        }
    }

    /// authenticatorGetNextAssertion (CTAP 2.1 §6.3): the next credential of
    /// the last getAssertion without allowList, signed under that
    /// ceremony's verification; `CTAP2_ERR_NOT_ALLOWED` when there is none,
    /// 30 seconds passed, or `requester` is not the one that sent it.
    func getNextAssertion(from requester: CTAPHIDRequester?) async throws -> CBORValue {
        guard var pending = pendingAssertions, pending.requester == requester else { throw CTAP2Status.notAllowed }
        guard !pending.credentials.isEmpty, case let age = now().timeIntervalSince(pending.answered), age >= 0,
            age < Self.assertionStateLimit
        else {
            endAssertions()
            throw CTAP2Status.notAllowed
        }
        let credential = pending.credentials.removeFirst()
        pending.answered = now()
        pendingAssertions = pending.credentials.isEmpty ? nil : pending
        defer { if pending.credentials.isEmpty, pending.ownsContext { pending.context.invalidate() } }
        return try await assertion(
            credential, relyingPartyID: pending.relyingPartyID, clientDataHash: pending.clientDataHash,
            extensionRequests: pending.extensionRequests, flags: pending.flags, context: pending.context, requester: requester,
            userDetails: true, numberOfCredentials: nil)
    }

    /// One assertion: the extensions' outputs, authenticator data
    /// with `flags` and the counter the signature advances to, and the
    /// store's signature over authenticator data ‖ clientDataHash.
    private func assertion(
        _ credential: PasskeyCredential, relyingPartyID: String, clientDataHash: [UInt8],
        extensionRequests: [(identifier: String, request: any CTAP2ExtensionAssertion)], flags: UInt8, context: AuthenticationContext,
        requester: CTAPHIDRequester?, userDetails: Bool, numberOfCredentials: Int?
    ) async throws -> CBORValue {
        let reason = CTAPHIDRequester.reason("Sign in to \(relyingPartyID)", askedBy: requester)
        var outputs: [CBORValue: CBORValue] = [:]
        for (identifier, request) in extensionRequests {
            outputs[.text(identifier)] = try await request.output(state: credential.creation.extensions[identifier]) {
                try await store.secret(of: credential, for: identifier, reason: reason, context: context)
            }
        }
        // The counter is taken before signing: what the lookup read may already be another process's (SPEC P4).
        let counter = try await store.nextSignatureCount(of: credential)
        guard counter > credential.signatureCount else { throw CTAP2Status.other }
        let authenticatorData = try AuthenticatorData(
            relyingPartyID: relyingPartyID, flags: flags, signatureCount: counter, attested: nil, extensions: outputs
        ).encoded()
        let signature = try await store.sign(authenticatorData + clientDataHash, with: credential, reason: reason, context: context)
        var user: [CBORValue: CBORValue] = ["id": .bytes(credential.creation.userHandle)]
        if userDetails {  // §6.2.2: names only after user verification, when the person picks among several
            if let name = credential.creation.userName { user["name"] = .text(name) }
            if let name = credential.creation.userDisplayName { user["displayName"] = .text(name) }
        }
        var response: [CBORValue: CBORValue] = [
            1: .map(["id": .bytes(credential.id), "type": "public-key"]), 2: .bytes(authenticatorData), 3: .bytes(signature),
            4: .map(user),
        ]
        if let numberOfCredentials { response[5] = .int(numberOfCredentials) }
        return .map(response)
    }
}
