import Sesame

extension CTAP2Authenticator {
    /// The longest user id (CTAP 2.1 §6.1: at most 64 bytes).
    static let maximumUserIDLength = 64
    /// Names longer than this many bytes are truncated (§6.1 allows 64).
    static let maximumNameLength = 64
    /// The longest relying party id accepted (a domain is at most 253).
    static let maximumRelyingPartyIDLength = 255

    /// authenticatorMakeCredential (CTAP 2.1 §6.1.2). The owner is verified
    /// for every credential (SPEC P1, P2): by the store here, or by the
    /// verification behind a pinUvAuthToken whose presence still counts.
    func makeCredential(_ parameters: CTAP2Parameters, from requester: CTAPHIDRequester?, status: @Sendable (CTAP2Keepalive) -> Void)
        async throws -> CBORValue
    {
        let clientDataHash = try parameters.clientDataHash(1)
        let rp = try parameters.requiredMap(2)
        let relyingPartyID = try Self.relyingPartyID(try rp.required("id", \.textValue))
        let relyingPartyName = try rp.optional("name", \.textValue)?.truncatedUTF8(Self.maximumNameLength)
        let user = try parameters.requiredMap(3)
        let userHandle = try user.required("id", \.bytesValue)
        guard !userHandle.isEmpty, userHandle.count <= Self.maximumUserIDLength else { throw CTAP2Status.invalidLength }
        let userName = try user.optional("name", \.textValue)?.truncatedUTF8(Self.maximumNameLength)
        let userDisplayName = try user.optional("displayName", \.textValue)?.truncatedUTF8(Self.maximumNameLength)
        let algorithm = try Self.algorithm(try parameters.required(4, \.arrayValue))
        let excludeList = try parameters.credentialIDs(5) ?? []
        var registrations = try CTAP2Extensions.registrations(try parameters.optionalMap(6))
        defer { CTAP2Extensions.wipeSecrets(&registrations) }
        let options = try parameters.optionalMap(7)
        let isDiscoverable = try options?.option("rk") ?? false
        if try options?.option("up") == false { throw CTAP2Status.invalidOption }  // §6.1.2 step 5
        _ = try options?.option("uv")  // always performed: the owner is verified for every credential
        let pinUvAuthParam = try parameters.optional(8, \.bytesValue)
        let pinUvAuthProtocol = try parameters.optional(9, \.intValue)
        _ = try parameters.optional(0x0A, \.intValue)  // enterpriseAttestation: not supported, so ignored (§6.1.2 step 9)

        let reason = CTAPHIDRequester.reason("Create a passkey for \(relyingPartyID)", askedBy: requester)
        let ceremony = try await ceremony(
            pinUvAuthParam, protocolNumber: pinUvAuthProtocol, clientDataHash: clientDataHash, permission: .makeCredential,
            relyingPartyID: relyingPartyID, reason: reason, requester: requester, status: status)
        defer { ceremony.invalidate() }
        // §6.1.2 step 11: an excluded credential is answered only once the owner is verified,
        // so a website cannot learn which accounts exist here without them.
        if !excludeList.isEmpty, try await !store.credentials(relyingPartyID: relyingPartyID, ids: excludeList).isEmpty {
            throw CTAP2Status.credentialExcluded
        }
        let creation = PasskeyCreation(
            relyingPartyID: relyingPartyID, relyingPartyName: relyingPartyName, userHandle: userHandle, userName: userName,
            userDisplayName: userDisplayName, algorithm: algorithm, isDiscoverable: isDiscoverable,
            extensions: registrations.mapValues(\.state))
        let credential = try await store.makeCredential(
            creation, secrets: registrations.compactMapValues(\.secret), reason: reason, context: ceremony)
        var outputs: [CBORValue: CBORValue] = [:]
        for (identifier, registration) in registrations { outputs[.text(identifier)] = registration.output }
        let authenticatorData = AuthenticatorData(
            relyingPartyID: relyingPartyID, flags: AuthenticatorData.userPresent | AuthenticatorData.userVerified,
            signatureCount: credential.signatureCount, attested: (aaguid: aaguid, credential: credential), extensions: outputs)
        return .map([1: "none", 2: .bytes(try authenticatorData.encoded()), 3: .map([:])])
    }

    /// A relying party id: non-empty text, bounded (SPEC P5), with no
    /// control character: it is named in the owner's dialog (SPEC P3), where
    /// a line break or a bidirectional override would make it read as
    /// another site or as words of the dialog's own. `CTAP2_ERR_INVALID_PARAMETER`
    /// otherwise, before any prompt.
    static func relyingPartyID(_ id: String) throws(CTAP2Status) -> String {
        guard !id.isEmpty, id.utf8.count <= maximumRelyingPartyIDLength else { throw .invalidLength }
        guard !id.containsControlCharacters else { throw .invalidParameter }
        return id
    }

    /// The first of pubKeyCredParams this authenticator supports (§6.1.2
    /// step 3); none is `CTAP2_ERR_UNSUPPORTED_ALGORITHM`.
    static func algorithm(_ parameters: [CBORValue]) throws(CTAP2Status) -> PasskeyAlgorithm {
        guard parameters.count <= maximumCredentialCountInList else { throw .limitExceeded }
        var chosen: PasskeyAlgorithm?
        for element in parameters {
            let parameter = try CTAP2Parameters(element)
            let type = try parameter.required("type", \.textValue)
            let alg = try parameter.required("alg", { $0.intValue ?? ($0.isInteger ? Int.min : nil) })
            if chosen == nil, type == "public-key", let algorithm = PasskeyAlgorithm(rawValue: alg) { chosen = algorithm }
        }
        guard let chosen else { throw .unsupportedAlgorithm }
        return chosen
    }

    /// The authorised context of a makeCredential or getAssertion: with a
    /// pinUvAuthParam, the token's (spent by this one use) when the presence
    /// its verification showed still counts (CTAP 2.1 §6.1.2 steps 11–13);
    /// otherwise the owner is asked now. A zero-length pinUvAuthParam is a
    /// client asking the person to pick an authenticator.
    func ceremony(
        _ pinUvAuthParam: [UInt8]?, protocolNumber: Int?, clientDataHash: [UInt8], permission: PinUvAuthToken.Permission,
        relyingPartyID: String, reason: String, requester: CTAPHIDRequester?, status: @Sendable (CTAP2Keepalive) -> Void
    ) async throws -> AuthenticationContext {
        try await ceremony(pinUvAuthParam, protocolNumber: protocolNumber, clientDataHash: clientDataHash, permission: permission,
                           relyingPartyID: relyingPartyID, reason: reason, requester: requester, spendsToken: true, status: status).context
    }

    /// ``ceremony(_:protocolNumber:clientDataHash:permission:relyingPartyID:reason:requester:status:)``,
    /// where a getAssertion with `up` false does not spend the token (§6.2.2
    /// clears the token's flags only when `up` is true): clients send one
    /// first to learn which of their credentials are here (python-fido2 and
    /// Chromium do), then the real request with the same token. Such an
    /// assertion carries neither UP nor UV, so the token's context signs it
    /// as long as the token is usable. The context then stays the token's
    /// (`isTokens`): the caller must not invalidate it.
    func ceremony(
        _ pinUvAuthParam: [UInt8]?, protocolNumber: Int?, clientDataHash: [UInt8], permission: PinUvAuthToken.Permission,
        relyingPartyID: String, reason: String, requester: CTAPHIDRequester?, spendsToken: Bool,
        status: @Sendable (CTAP2Keepalive) -> Void
    ) async throws -> (context: AuthenticationContext, isTokens: Bool) {
        if let pinUvAuthParam {
            if pinUvAuthParam.isEmpty { try await selectForPinUvAuth(requester: requester, status: status) }
            let token = try verifyToken(
                pinUvAuthParam, protocolNumber: protocolNumber, message: clientDataHash, permission: permission,
                relyingPartyID: relyingPartyID)
            if !spendsToken { return (token.context, true) }
            if let context = spendToken(token) { return (context, false) }
        }
        return (try await verifyOwner(for: relyingPartyID, reason: reason, status: status), false)
    }

    /// A zero-length pinUvAuthParam (§6.1.2 step 1): the client asks the
    /// person to pick an authenticator; after an act of the owner, answer
    /// that user verification is set up (`CTAP2_ERR_PIN_INVALID`).
    func selectForPinUvAuth(requester: CTAPHIDRequester?, status: @Sendable (CTAP2Keepalive) -> Void) async throws -> Never {
        try await verifyOwner(for: "", reason: CTAPHIDRequester.reason("Select this authenticator", askedBy: requester), status: status)
            .invalidate()
        throw CTAP2Status.pinInvalid
    }
}

extension CBORValue {
    /// Whether this is an integer, even one too large for `Int`.
    var isInteger: Bool {
        switch self {
        case .unsigned, .negative: true
        default: false
        }
    }
}
