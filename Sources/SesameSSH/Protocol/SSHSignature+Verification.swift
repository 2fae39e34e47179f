import Sesame
extension SSHSignature {
    /// Checks an SSH signature blob (`string type ‖ string signature`) over
    /// `data` by `key`: ssh-ed25519, ecdsa-sha2-nistp256/384/521 with r and s
    /// as mpints, or rsa-sha2-256/512. Used for `session-bind@openssh.com`,
    /// where the host proves the session identifier.
    ///
    /// - Parameters:
    ///   - signature: The signature blob.
    ///   - data: What was signed.
    ///   - key: The signer's public key.
    /// - Returns: Whether it verifies.
    public static func verify(_ signature: [UInt8], of data: [UInt8], by key: PublicKey) -> Bool {
        var reader = ByteReader(signature)
        guard let type = try? reader.field(), let body = try? reader.field(), reader.isAtEnd,
              key.algorithm.purpose == .signing else { return false }
        let name = String(decoding: type, as: UTF8.self)
        switch key.algorithm {
        case .ed25519:
            return name == SSHKeyEncoding.ed25519Type && body.count == 64 && key.isValidSignature(body, for: data)
        case .p256, .p384, .p521:
            let length = SSHKeyEncoding.scalarLength(key.algorithm)
            var numbers = ByteReader(body)
            guard name == SSHKeyEncoding.keyType(key.algorithm), let r = try? numbers.field(), let s = try? numbers.field(), numbers.isAtEnd,
                  let rFixed = SSHKeyEncoding.fixed(mpint: r, count: length), let sFixed = SSHKeyEncoding.fixed(mpint: s, count: length) else { return false }
            return key.isValidSignature(rFixed + sFixed, for: data, encoding: .raw)
        case .rsa2048, .rsa3072, .rsa4096:
            // SHA-1 (`ssh-rsa`) host signatures are not trusted.
            guard let scheme = RSASignatureScheme(rawValue: name), scheme == .pkcs1SHA256 || scheme == .pkcs1SHA512 else { return false }
            return key.isValidSignature(body, for: data, rsaScheme: scheme)
        case .x25519, .p256Agreement:
            return false
        }
    }
}
