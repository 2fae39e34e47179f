import Sesame
extension SSHSignature {
    /// Checks an SSH signature blob (`string type ‖ string signature`) over
    /// `data` by `key`: ssh-ed25519, or ecdsa-sha2-nistp256 with its r and s
    /// as mpints. Used for `session-bind@openssh.com`, where the host proves
    /// the session identifier; other host key types are not checked and so
    /// not bound.
    ///
    /// - Parameters:
    ///   - signature: The signature blob.
    ///   - data: What was signed.
    ///   - key: The signer's public key.
    /// - Returns: Whether it verifies.
    public static func verify(_ signature: [UInt8], of data: [UInt8], by key: PublicKey) -> Bool {
        var reader = ByteReader(signature)
        guard let type = try? reader.field(), let body = try? reader.field(), reader.isAtEnd,
              String(decoding: type, as: UTF8.self) == SSHKeyEncoding.keyType(key.algorithm) else { return false }
        switch key.algorithm {
        case .ed25519:
            return body.count == 64 && key.isValidSignature(body, for: data)
        case .p256:
            var numbers = ByteReader(body)
            guard let r = try? numbers.field(), let s = try? numbers.field(), numbers.isAtEnd,
                  let r32 = SSHKeyEncoding.fixed32(mpint: r), let s32 = SSHKeyEncoding.fixed32(mpint: s) else { return false }
            return key.isValidSignature(r32 + s32, for: data, encoding: .raw)
        case .x25519, .p256Agreement:
            return false
        }
    }
}
