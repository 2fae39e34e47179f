import Sesame
/// SSH signature and public key blob encodings for the agent
/// (RFC 8709 §6 for Ed25519, RFC 5656 §3.1.2 for ECDSA, RFC 8332 for RSA).
public enum SSHSignature {
    /// Wraps a raw signature in the SSH signature format an agent returns in
    /// ``SSHAgentResponse/signature(_:)``.
    ///
    /// `ssh-ed25519`: `string "ssh-ed25519" ‖ string signature(64)`.
    /// `ecdsa-sha2-nistpN`: `string type ‖ string(mpint r ‖ mpint s)`, where
    /// r and s are the two halves of the raw signature, written as SSH mpints
    /// (leading zeros stripped, one 0x00 in front when the top bit is set).
    ///
    /// - Parameters:
    ///   - algorithm: `KeyAlgorithm.ed25519`, `.p256`, `.p384` or `.p521`.
    ///   - rawSignature: Ed25519's 64 bytes, or ECDSA's r‖s
    ///     (`SignatureEncoding.raw`: 64, 96 or 132 bytes).
    /// - Returns: The SSH signature blob.
    /// - Throws: `VaultError` `invalidArgument` for a key-agreement or RSA
    ///   algorithm (see ``encode(rsaScheme:signature:)``) or a signature of
    ///   the wrong length.
    public static func encode(algorithm: KeyAlgorithm, rawSignature: [UInt8]) throws(VaultError) -> [UInt8] {
        guard let type = SSHKeyEncoding.keyType(algorithm), algorithm.rsaBits == nil else {
            throw VaultError(.invalidArgument, "\(algorithm) signatures are not encoded by key algorithm (RSA ones are named by their scheme)")
        }
        let length = algorithm == .ed25519 ? 64 : 2 * SSHKeyEncoding.scalarLength(algorithm)
        guard rawSignature.count == length else {
            throw VaultError(.invalidArgument, "A raw \(algorithm) signature is \(length) bytes, not \(rawSignature.count)")
        }
        var writer = ByteWriter()
        writer.field(type)
        if algorithm == .ed25519 {
            writer.field(rawSignature)
        } else {
            var inner = ByteWriter()
            inner.field(SSHKeyEncoding.mpint(rawSignature[..<(length / 2)]))
            inner.field(SSHKeyEncoding.mpint(rawSignature[(length / 2)...]))
            writer.field(inner.bytes)
        }
        return writer.bytes
    }

    /// Wraps an RSA signature: `string "rsa-sha2-256" | "rsa-sha2-512" ‖
    /// string signature` (RFC 8332 §3), or `string "ssh-rsa" ‖ string
    /// signature` (RFC 4253 §6.6) for the SHA-1 signature of a key marked
    /// for it; the signature as long as the modulus.
    ///
    /// - Parameters:
    ///   - rsaScheme: `RSASignatureScheme.pkcs1SHA256`, `.pkcs1SHA512` or `.pkcs1SHA1`.
    ///   - signature: What the vault's RSA signing returned.
    /// - Returns: The SSH signature blob.
    /// - Throws: `VaultError` `invalidArgument` for PSS, which SSH has no name for.
    public static func encode(rsaScheme: RSASignatureScheme, signature: [UInt8]) throws(VaultError) -> [UInt8] {
        guard rsaScheme == .pkcs1SHA256 || rsaScheme == .pkcs1SHA512 || rsaScheme == .pkcs1SHA1 else {
            throw VaultError(.invalidArgument, "SSH has no name for \(rsaScheme.rawValue) signatures")
        }
        var writer = ByteWriter()
        writer.field(rsaScheme.rawValue)
        writer.field(signature)
        return writer.bytes
    }

    /// The public key a key blob names.
    ///
    /// - Parameters:
    ///   - blob: `string "ssh-ed25519" ‖ string key(32)`,
    ///     `string "ecdsa-sha2-nistpN" ‖ string "nistpN" ‖ string Q`, or
    ///     `string "ssh-rsa" ‖ mpint e ‖ mpint n` (2048, 3072 or 4096 bits),
    ///     with nothing after it.
    /// - Returns: The validated key, or `nil` for another key type, a
    ///   malformed blob or an invalid point.
    public static func publicKey(fromBlob blob: [UInt8]) -> PublicKey? {
        var reader = ByteReader(blob)
        guard let typeBytes = try? reader.field() else { return nil }
        let type = String(decoding: typeBytes, as: UTF8.self)
        if type == SSHKeyEncoding.rsaType {
            guard let e = try? reader.field(), let n = try? reader.field(), reader.isAtEnd,
                  let magnitudeE = SSHKeyEncoding.unsigned(mpint: e), let magnitudeN = SSHKeyEncoding.unsigned(mpint: n) else { return nil }
            return RSAPublicKeys.publicKey(n: magnitudeN, e: magnitudeE)
        }
        let algorithm: KeyAlgorithm
        if type == SSHKeyEncoding.ed25519Type {
            algorithm = .ed25519
        } else if let ecdsa = SSHKeyEncoding.ecdsaAlgorithm(type: type) {
            guard (try? reader.field()) == Array((SSHKeyEncoding.curveName(ecdsa) ?? "").utf8) else { return nil }
            algorithm = ecdsa
        } else {
            return nil
        }
        guard let raw = try? reader.field(), reader.isAtEnd else { return nil }
        return try? PublicKey(algorithm: algorithm, rawRepresentation: raw)
    }
}

extension SSHSignature {
    /// An unsigned big-endian number as an SSH mpint's contents (RFC 4251 §5).
    static func mpint(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
        SSHKeyEncoding.mpint(magnitude)
    }
}
