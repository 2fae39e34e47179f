#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The one pinUvAuthToken and its state (CTAP 2.1 §6.5.2.1): permissions,
/// the relying party it is bound to, its usage timer and its userPresent and
/// userVerified flags, with the context the owner's verification authorised
/// (so a command that presents the token does not ask again, SPEC P1).
struct PinUvAuthToken {
    /// The permissions of §6.5.5.7 this authenticator grants.
    enum Permission: Int {
        case makeCredential = 0x01
        case getAssertion = 0x02
        case credentialManagement = 0x04
    }

    /// Not used within this long after it is issued, the token expires
    /// (§6.5.2.1's initial usage time limit).
    static let initialUsageLimit: TimeInterval = 30
    /// The longest a token lives (§6.5.2.1's maximum usage time period).
    static let maximumUsage: TimeInterval = 600
    /// How long the presence the verification showed counts (§6.5.2.1's
    /// user present time limit).
    static let userPresentLimit: TimeInterval = 30

    let value: [UInt8]
    let pinUvAuthProtocol: PinUvAuthProtocol
    var permissions: Int
    var relyingPartyID: String?
    var userVerified = true
    var userPresent = true
    var used = false
    let issued: Date
    let context: AuthenticationContext

    /// Whether the usage timer still allows the token at `now`.
    func isUsable(at now: Date) -> Bool {
        let age = now.timeIntervalSince(issued)
        return age >= 0 && age < Self.maximumUsage && (used || age < Self.initialUsageLimit)
    }

    /// Whether the presence the verification showed still counts at `now`.
    func isUserPresent(at now: Date) -> Bool {
        let age = now.timeIntervalSince(issued)
        return userPresent && age >= 0 && age < Self.userPresentLimit
    }
}
