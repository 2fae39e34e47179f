#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// What a getAssertion without allowList leaves for getNextAssertion (CTAP
/// 2.1 §6.3): the remaining credentials in order, and the ceremony's
/// authorised context, so they are signed without asking again.
struct PendingAssertions {
    /// Who sent the getAssertion: only it continues.
    let requester: CTAPHIDRequester?
    var credentials: [PasskeyCredential]
    let relyingPartyID: String
    let clientDataHash: [UInt8]
    /// The extensions' parsed inputs, each answered for every credential.
    let extensionRequests: [(identifier: String, request: any CTAP2ExtensionAssertion)]
    /// The getAssertion's UP and UV flags: none when it asked for no presence.
    let flags: UInt8
    let context: AuthenticationContext
    /// Whether `context` is this state's to invalidate, not a pinUvAuthToken's.
    let ownsContext: Bool
    /// When the last assertion was answered: the state lasts 30 s from it.
    var answered: Date
}
