#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Sesame

/// A CTAP 2.1 authenticator (the FIDO Alliance's Client to Authenticator
/// Protocol, §6): a request's command byte and CBOR parameters in, a status
/// byte and CBOR out. Passkeys live in a ``PasskeyStore``; this layer decides
/// what a request means and never lets one use a key without the owner
/// (SPEC P1, P2). Its user verification is built in (the store's), so it
/// has no PIN of its own: clients obtain pinUvAuthTokens with
/// getPinUvAuthTokenUsingUvWithPermissions.
///
/// Requests are parsed as hostile input (SPEC P5): every parameter's type
/// and length is checked, and anything malformed is answered with a CTAP
/// error byte. The transport (CTAPHID) hands over one request at a time.
public actor CTAP2Authenticator {
    /// The largest request accepted, as getInfo's maxMsgSize says.
    public static let maximumMessageSize = 7609
    /// The longest allowList or excludeList accepted (getInfo's
    /// maxCredentialCountInList).
    public static let maximumCredentialCountInList = 64
    /// The longest credential id this authenticator issues or looks up
    /// (getInfo's maxCredentialIdLength).
    public static let maximumCredentialIDLength = 1024
    /// How long the credentials of a getAssertion wait for
    /// getNextAssertion (CTAP 2.1 §6.3's 30 seconds).
    static let assertionStateLimit: TimeInterval = 30

    let store: any PasskeyStore
    let aaguid: [UInt8]
    let makeContext: @Sendable () -> AuthenticationContext
    let now: @Sendable () -> Date
    /// The key agreement key of §6.5.6, made at power-up (this actor's
    /// start) and after a failed verification.
    var keyAgreementKey = P256.KeyAgreement.PrivateKey()
    /// The pinUvAuthToken last issued, if any.
    var token: PinUvAuthToken?
    /// What getNextAssertion continues.
    var pendingAssertions: PendingAssertions?
    /// What enumerateRPsGetNextRP and enumerateCredentialsGetNextCredential
    /// continue: the requester that began it, the subcommand that
    /// continues, the items left.
    var pendingEnumeration: (requester: CTAPHIDRequester?, next: Int, items: [CBORValue])?
    /// Hosts on several transports (socket connections) take turns, so
    /// one's prompt never interleaves with another's token or
    /// getNextAssertion state.
    let turns = TurnQueue()

    /// An authenticator over `store`.
    ///
    /// - Parameters:
    ///   - store: Where passkeys live.
    ///   - aaguid: The 16-byte model identifier getInfo and attested
    ///     credential data carry.
    ///   - makeContext: A fresh context for each ceremony: the store's
    ///     verification authorises it, and it is invalidated when the
    ///     ceremony ends.
    public init(store: some PasskeyStore, aaguid: [UInt8], makeContext: @escaping @Sendable () -> AuthenticationContext) {
        self.init(store: store, aaguid: aaguid, makeContext: makeContext, now: { Date() })
    }

    /// An authenticator whose timers (token usage, getNextAssertion) read
    /// `now`, for tests.
    package init(
        store: some PasskeyStore, aaguid: [UInt8], makeContext: @escaping @Sendable () -> AuthenticationContext,
        now: @escaping @Sendable () -> Date
    ) {
        precondition(aaguid.count == 16, "an AAGUID is 16 bytes")
        self.store = store
        self.aaguid = aaguid
        self.makeContext = makeContext
        self.now = now
    }

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - request: The command byte and its CBOR parameters.
    ///   - requester: Who sent it: what a request begins (getNextAssertion's
    ///     credentials, a credential enumeration) is continued only by the
    ///     same requester; another one is answered `CTAP2_ERR_NOT_ALLOWED`
    ///     and leaves it alone. `nil` for a caller that serves one host.
    ///   - status: Told ``CTAP2Keepalive/upNeeded`` before the request waits
    ///     for the owner, so the transport can send KEEPALIVE.
    /// - Returns: The status byte, then the response's CBOR when it is
    ///   ``CTAP2Status/ok`` and the command has one.
    public func handle(_ request: [UInt8], from requester: CTAPHIDRequester? = nil, status: @Sendable (CTAP2Keepalive) -> Void) async
        -> [UInt8]
    {
        guard let byte = request.first else { return [CTAP2Status.invalidLength.rawValue] }
        let command = CTAP2Command(rawValue: byte)
        // §6.3: any other command ends getNextAssertion's state; another requester's never touches it.
        if command != .getNextAssertion, pendingAssertions?.requester == requester { endAssertions() }
        if command?.managesCredentials != true, pendingEnumeration?.requester == requester { pendingEnumeration = nil }
        do {
            guard request.count <= Self.maximumMessageSize else { throw CTAP2Status.requestTooLarge }
            let parameters = try CTAP2Parameters(decoding: request.dropFirst())
            let response: CBORValue?
            switch command {
            case .makeCredential: response = try await makeCredential(parameters, from: requester, status: status)
            case .getAssertion: response = try await getAssertion(parameters, from: requester, status: status)
            case .getInfo: response = info
            case .clientPIN: response = try await clientPIN(parameters, from: requester, status: status)
            case .reset: throw CTAP2Status.notAllowed  // deleting every passkey is `sesame passkey rm`, never a client's
            case .getNextAssertion: response = try await getNextAssertion(from: requester)
            case .credentialManagement, .credentialManagementPreview: response = try await credentialManagement(parameters, from: requester)
            case .selection:
                try await verifyOwner(
                    for: "", reason: CTAPHIDRequester.reason("Select this authenticator", askedBy: requester), status: status
                ).invalidate()
                response = nil
            case nil: throw CTAP2Status.invalidCommand
            }
            return [CTAP2Status.ok.rawValue] + (response?.encoded ?? [])
        } catch {
            return [CTAP2Status(error, cancelled: Task.isCancelled).rawValue]
        }
    }

    /// Asks the owner through the store with a fresh context, telling the
    /// transport first; returns the authorised context.
    func verifyOwner(for relyingPartyID: String, reason: String, status: @Sendable (CTAP2Keepalive) -> Void) async throws
        -> AuthenticationContext
    {
        let context = makeContext()
        status(.upNeeded)
        do {
            try await store.verifyOwner(for: relyingPartyID, reason: reason, context: context)
        } catch {
            context.invalidate()
            throw error
        }
        if Task.isCancelled {
            context.invalidate()
            throw CTAP2Status.keepaliveCancel
        }
        return context
    }

    /// The token a request's pinUvAuthParam proves, checked as CTAP 2.1
    /// §6.5.5.7 and §6.1.2 ask: the protocol it was issued for, the usage
    /// timer, `authenticate(token, message)` in constant time, the
    /// permission, and the relying party it is bound to (binding it when it
    /// is not yet).
    func verifyToken(
        _ pinUvAuthParam: [UInt8], protocolNumber: Int?, message: [UInt8], permission: PinUvAuthToken.Permission,
        relyingPartyID: String?
    ) throws(CTAP2Status) -> PinUvAuthToken {
        let pinUvAuthProtocol = try PinUvAuthProtocol(number: protocolNumber)
        guard var token, token.pinUvAuthProtocol == pinUvAuthProtocol, token.isUsable(at: now()),
            pinUvAuthProtocol.verify(key: token.value, message: message, signature: pinUvAuthParam)
        else { throw .pinAuthInvalid }
        guard token.permissions & permission.rawValue != 0 else { throw .unauthorizedPermission }
        if let relyingPartyID {
            if let bound = token.relyingPartyID, bound != relyingPartyID { throw .unauthorizedPermission }
            token.relyingPartyID = relyingPartyID
        }
        guard token.userVerified else { throw .pinAuthInvalid }
        token.used = true
        self.token = token
        return token
    }

    /// Ends the token's use after one makeCredential or getAssertion
    /// (§6.1.2: clearUserPresentFlag, clearUserVerifiedFlag and
    /// clearPinUvAuthTokenPermissionsExceptLbw); returns its context for the
    /// ceremony when the presence its verification showed still counts,
    /// else invalidates it and the owner is asked again.
    func spendToken(_ spent: PinUvAuthToken) -> AuthenticationContext? {
        token = nil
        if spent.isUserPresent(at: now()) { return spent.context }
        spent.context.invalidate()
        return nil
    }

    /// The owner's session locked, or the machine began to sleep (SPEC D14):
    /// the pinUvAuthToken and getNextAssertion's authorised state end now,
    /// so nothing the owner verified before the lock is used after it. A
    /// client asks for a new token, and the owner is asked again.
    public func sessionLocked() {
        token?.context.invalidate()
        token = nil
        endAssertions()
    }

    /// Forgets getNextAssertion's state and its authorised context.
    func endAssertions() {
        if let pendingAssertions, pendingAssertions.ownsContext { pendingAssertions.context.invalidate() }
        pendingAssertions = nil
    }
}
