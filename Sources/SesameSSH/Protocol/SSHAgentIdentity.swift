import Sesame
/// One key the agent offers, as listed in
/// ``SSHAgentResponse/identities(_:)``.
public struct SSHAgentIdentity: Sendable, Equatable {
    /// The public key blob (`string type ‖ …`, RFC 4253 §6.6), as in
    /// `authorized_keys` before base64.
    public let keyBlob: [UInt8]
    /// Free text shown by `ssh-add -l`.
    public let comment: String

    /// An identity to list.
    ///
    /// - Parameters:
    ///   - keyBlob: The public key blob, for instance from
    ///     `PublicKey.openSSHRepresentation(comment:)`'s base64 field.
    ///   - comment: Free text shown by `ssh-add -l` (sent as UTF-8).
    public init(keyBlob: [UInt8], comment: String) {
        self.keyBlob = keyBlob
        self.comment = comment
    }
}
