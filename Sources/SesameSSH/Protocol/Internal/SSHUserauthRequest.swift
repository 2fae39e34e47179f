import Sesame

/// The data a client asks an agent to sign when it is an SSH public key
/// login (RFC 4252 section 7; OpenSSH's `publickey-hostbound-v00@openssh.com`
/// adds the server's host key), read as OpenSSH's agent reads it
/// (`parse_userauth_request`) to check a destination-constrained key's use.
struct SSHUserauthRequest: Equatable {
    /// The session it logs in on.
    var sessionIdentifier: [UInt8]
    /// The user it logs in as.
    var user: String
    /// The host key the request names (hostbound method only).
    var hostKey: PublicKey?

    /// `string session-id ‖ byte 50 ‖ string user ‖ string "ssh-connection" ‖
    /// string method ‖ bool TRUE ‖ string algorithm ‖ string key
    /// [‖ string host-key]`, nothing after; `nil` for anything else, or a
    /// request for another key than `key`.
    init?(_ data: [UInt8], key: PublicKey) {
        var reader = ByteReader(data)
        guard let session = try? reader.field(), !session.isEmpty,
              let type = try? reader.u8(), type == 50,
              let user = try? reader.field(), !user.contains(0),
              let service = try? reader.field(), service == Array("ssh-connection".utf8),
              let method = try? reader.field(),
              let signatureFollows = try? reader.u8(), signatureFollows == 1,
              let algorithm = try? reader.field(),
              let keyBlob = try? reader.field(),
              SSHSignature.publicKey(fromBlob: keyBlob) == key,
              Self.algorithm(String(decoding: algorithm, as: UTF8.self), isFor: key) else { return nil }
        var hostKey: PublicKey?
        switch String(decoding: method, as: UTF8.self) {
        case "publickey-hostbound-v00@openssh.com":
            guard let blob = try? reader.field(), let parsed = SSHSignature.publicKey(fromBlob: blob) else { return nil }
            hostKey = parsed
        case "publickey":
            break
        default:
            return nil
        }
        guard reader.isAtEnd else { return nil }
        sessionIdentifier = session
        self.user = String(decoding: user, as: UTF8.self)
        self.hostKey = hostKey
    }

    /// Whether the signature algorithm a request names is one of the key's
    /// (an RSA key signs as `ssh-rsa` or `rsa-sha2-256/512`).
    private static func algorithm(_ name: String, isFor key: PublicKey) -> Bool {
        if key.algorithm.rsaBits != nil { return [SSHKeyEncoding.rsaType, "rsa-sha2-256", "rsa-sha2-512"].contains(name) }
        return SSHKeyEncoding.keyType(key.algorithm) == name
    }
}
