#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import SesamePasskeys

/// A passkey in `sesame passkey ls --json`: its public facts, never its key.
struct PasskeyDocument: Encodable {
    /// The first 6 bytes of the credential id's SHA-256, in hex: what
    /// `passkey rm` takes (the id itself is ~60 bytes).
    var shortID: String
    /// The credential id, base64url as WebAuthn spells it.
    var id: String
    var relyingParty: String
    var relyingPartyName: String?
    var userName: String?
    var userDisplayName: String?
    /// The user handle, base64url.
    var userHandle: String
    var algorithm: String
    var discoverable: Bool
    var credProtect: Int
    var hmacSecret: Bool
    var created: Date
    var signatureCount: UInt32

    init(_ credential: PasskeyCredential) {
        shortID = Self.shortID(of: credential.id)
        id = Self.base64URL(credential.id)
        relyingParty = credential.creation.relyingPartyID
        relyingPartyName = credential.creation.relyingPartyName
        userName = credential.creation.userName
        userDisplayName = credential.creation.userDisplayName
        userHandle = Self.base64URL(credential.creation.userHandle)
        algorithm = credential.creation.algorithm == .es256 ? "ES256" : "EdDSA"
        discoverable = credential.creation.isDiscoverable
        credProtect = CredProtectExtension.protection(of: credential.creation).rawValue
        hmacSecret = HMACSecretExtension.isEnabled(for: credential.creation)
        created = credential.created
        signatureCount = credential.signatureCount
    }

    static func shortID(of id: [UInt8]) -> String {
        SHA256.hash(data: id).prefix(6).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
