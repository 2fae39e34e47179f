import Sesame
/// A parsed client message (draft-miller-ssh-agent, RFC 9987; OpenSSH's
/// PROTOCOL.agent). Produced only by ``parse(_:)``, which checks every
/// length before reading and refuses trailing bytes.
public enum SSHAgentRequest: Sendable {
    /// `SSH_AGENTC_REQUEST_IDENTITIES` (11): list the keys.
    case requestIdentities
    /// `SSH_AGENTC_SIGN_REQUEST` (13): sign `data` with the key whose public
    /// key blob is `keyBlob`; `flags` holds the RSA hash choices (2, 4),
    /// meaningless for Ed25519 and ECDSA.
    case sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32)
    /// `SSH_AGENTC_ADD_IDENTITY` (17, no constraints) or
    /// `SSH_AGENTC_ADD_ID_CONSTRAINED` (25).
    case addIdentity(SSHAgentKey, comment: String, constraints: [SSHAgentConstraint])
    /// `SSH_AGENTC_REMOVE_IDENTITY` (18).
    case removeIdentity(keyBlob: [UInt8])
    /// `SSH_AGENTC_REMOVE_ALL_IDENTITIES` (19).
    case removeAllIdentities
    /// `SSH_AGENTC_LOCK` (22).
    case lock(passphrase: SecretBytes)
    /// `SSH_AGENTC_UNLOCK` (23).
    case unlock(passphrase: SecretBytes)
    /// `SSH_AGENTC_EXTENSION` (27) `session-bind@openssh.com`: the client
    /// binds this connection to an SSH session (OpenSSH 8.9+).
    case sessionBind(hostKey: [UInt8], sessionIdentifier: [UInt8], signature: [UInt8], isForwarding: Bool)
    /// `SSH_AGENTC_EXTENSION` (27) with any other name; its contents are
    /// not read.
    case unknownExtension(name: String)
    /// An add (17, 25) of a key type Sesame does not keep (FIDO `sk-` keys,
    /// certificates, DSA, RSA of another size), and why, for the agent's log;
    /// the rest of the message is not read.
    case unsupportedKey(type: UInt8, reason: String)
    /// Any other message type, including the smartcard messages (20, 21,
    /// 24, 26).
    case unsupported(type: UInt8)

    /// The longest message body accepted (256 KiB, as OpenSSH's agent).
    public static let maximumLength = 256 * 1024

    /// Parses one message body.
    ///
    /// Safe on hostile input: every length is checked against what remains
    /// before anything is allocated, and no input traps. Secrets (a private
    /// key, a passphrase) are copied into `SecretBytes` and the temporary
    /// copies wiped; `body` itself still holds them, and is the caller's to
    /// wipe.
    ///
    /// - Parameters:
    ///   - body: The bytes after the 4-byte length: the type byte, then its
    ///     contents.
    /// - Returns: The request.
    /// - Throws: ``SSHAgentProtocolError/empty`` for no bytes,
    ///   ``SSHAgentProtocolError/tooLong(_:)`` above ``maximumLength``, and
    ///   ``SSHAgentProtocolError/malformed(_:)`` for a truncated message,
    ///   trailing bytes, an invalid or inconsistent key, or an unknown
    ///   constraint type.
    public static func parse(_ body: [UInt8]) throws(SSHAgentProtocolError) -> SSHAgentRequest {
        guard !body.isEmpty else { throw .empty }
        guard body.count <= maximumLength else { throw .tooLong(body.count) }
        var reader = SSHAgentReader(body)
        let type = try reader.u8("message type")
        let request: SSHAgentRequest
        switch type {
        case 11:
            request = .requestIdentities
        case 13:
            request = .sign(keyBlob: try reader.string("key blob"), data: try reader.string("data"), flags: try reader.u32("flags"))
        case 17, 25:
            let (key, comment): (SSHAgentKey, String)
            switch try reader.privateKey() {
            case .key(let parsed, let text): (key, comment) = (parsed, text)
            case .unsupported(let reason): return .unsupportedKey(type: type, reason: reason)
            }
            request = .addIdentity(key, comment: comment, constraints: type == 25 ? try reader.constraints() : [])
        case 18:
            request = .removeIdentity(keyBlob: try reader.string("key blob"))
        case 19:
            request = .removeAllIdentities
        case 22:
            request = .lock(passphrase: try reader.secret("passphrase"))
        case 23:
            request = .unlock(passphrase: try reader.secret("passphrase"))
        case 27:
            let name = try reader.string("extension name")
            guard name == Array("session-bind@openssh.com".utf8) else {
                return .unknownExtension(name: String(decoding: name, as: UTF8.self))
            }
            request = .sessionBind(hostKey: try reader.string("host key"), sessionIdentifier: try reader.string("session identifier"),
                                   signature: try reader.string("signature"), isForwarding: try reader.u8("is-forwarding") != 0)
        default:
            return .unsupported(type: type)
        }
        try reader.finish()
        return request
    }
}
