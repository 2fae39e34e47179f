import Sesame
/// A reply from the agent to the client.
public enum SSHAgentResponse: Sendable {
    /// `SSH_AGENT_SUCCESS` (6).
    case success
    /// `SSH_AGENT_FAILURE` (5): also the reply to anything unsupported.
    case failure
    /// `SSH_AGENT_IDENTITIES_ANSWER` (12): `uint32 n`, then n times
    /// `string key blob ‖ string comment`.
    case identities([SSHAgentIdentity])
    /// `SSH_AGENT_SIGN_RESPONSE` (14): `string signature`, already in SSH
    /// signature format (see ``SSHSignature/encode(algorithm:rawSignature:)``).
    case signature([UInt8])

    /// The message type byte.
    var type: UInt8 {
        switch self {
        case .success: 6
        case .failure: 5
        case .identities: 12
        case .signature: 14
        }
    }

    /// The whole frame to write to the socket: `uint32 length ‖ type ‖ body`.
    ///
    /// - Returns: The bytes, the length counting the type byte and the body.
    public var frame: [UInt8] {
        var body = ByteWriter()
        body.u8(type)
        switch self {
        case .success, .failure:
            break
        case .identities(let identities):
            body.u32(UInt32(truncatingIfNeeded: identities.count))
            for identity in identities {
                body.field(identity.keyBlob)
                body.field(identity.comment)
            }
        case .signature(let signature):
            body.field(signature)
        }
        var frame = ByteWriter()
        frame.field(body.bytes)
        return frame.bytes
    }
}
