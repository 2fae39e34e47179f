#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// A stored passkey's public facts: what a client may learn of it after the
/// owner is verified, and what `sesame passkey ls` prints. Reading them never
/// prompts; the private key is never among them (SPEC D7).
public struct PasskeyCredential: Sendable, Hashable {
    /// The credential id a relying party stores and sends back. The store
    /// seals it (SPEC P4): it names the credential to this vault alone and
    /// tells anyone else nothing.
    public let id: [UInt8]
    /// What was asked for when it was made.
    public let creation: PasskeyCreation
    /// The public key, whose algorithm is ``PasskeyCreation/algorithm``'s.
    public let publicKey: PublicKey
    /// When it was made.
    public let created: Date
    /// The signature counter after the last signature (SPEC P4: it never
    /// goes back).
    public let signatureCount: UInt32

    /// - Parameters: see the properties.
    public init(id: [UInt8], creation: PasskeyCreation, publicKey: PublicKey, created: Date, signatureCount: UInt32) {
        self.id = id
        self.creation = creation
        self.publicKey = publicKey
        self.created = created
        self.signatureCount = signatureCount
    }
}
