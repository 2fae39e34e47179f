import Sesame
/// SSH signature and public key blob encodings for the agent
/// (RFC 8709 §6 for Ed25519, RFC 5656 §3.1.2 for ECDSA).
public enum SSHSignature {
    /// Wraps a raw signature in the SSH signature format an agent returns in
    /// ``SSHAgentResponse/signature(_:)``.
    ///
    /// `ssh-ed25519`: `string "ssh-ed25519" ‖ string signature(64)`.
    /// `ecdsa-sha2-nistp256`: `string "ecdsa-sha2-nistp256" ‖ string(mpint r
    /// ‖ mpint s)`, where r and s are the two 32-byte big-endian halves of the
    /// raw signature, written as SSH mpints (leading zeros stripped, one 0x00
    /// in front when the top bit is set).
    ///
    /// - Parameters:
    ///   - algorithm: `KeyAlgorithm.ed25519` or `KeyAlgorithm.p256`.
    ///   - rawSignature: 64 bytes: Ed25519's signature, or P-256's r‖s
    ///     (`SignatureEncoding.raw`).
    /// - Returns: The SSH signature blob.
    /// - Throws: `VaultError` `invalidArgument` for a key-agreement
    ///   algorithm or a signature that is not 64 bytes.
    public static func encode(algorithm: KeyAlgorithm, rawSignature: [UInt8]) throws(VaultError) -> [UInt8] {
        guard let type = SSHKeyEncoding.keyType(algorithm) else {
            throw VaultError(.invalidArgument, "\(algorithm) keys do not sign; SSH signatures are ssh-ed25519 or ecdsa-sha2-nistp256")
        }
        guard rawSignature.count == 64 else {
            throw VaultError(.invalidArgument, "A raw \(algorithm) signature is 64 bytes, not \(rawSignature.count)")
        }
        var writer = ByteWriter()
        writer.field(type)
        if algorithm == .p256 {
            var inner = ByteWriter()
            inner.field(mpint(rawSignature[..<32]))
            inner.field(mpint(rawSignature[32...]))
            writer.field(inner.bytes)
        } else {
            writer.field(rawSignature)
        }
        return writer.bytes
    }

    /// The public key a key blob names.
    ///
    /// - Parameters:
    ///   - blob: `string "ssh-ed25519" ‖ string key(32)` or
    ///     `string "ecdsa-sha2-nistp256" ‖ string "nistp256" ‖ string Q(65)`,
    ///     with nothing after it.
    /// - Returns: The validated key, or `nil` for another key type, a
    ///   malformed blob or an invalid point.
    public static func publicKey(fromBlob blob: [UInt8]) -> PublicKey? {
        var reader = ByteReader(blob)
        guard let type = try? reader.field() else { return nil }
        let algorithm: KeyAlgorithm
        switch type {
        case Array(SSHKeyEncoding.ed25519Type.utf8):
            algorithm = .ed25519
        case Array(SSHKeyEncoding.p256Type.utf8):
            guard (try? reader.field()) == Array(SSHKeyEncoding.p256Curve.utf8) else { return nil }
            algorithm = .p256
        default:
            return nil
        }
        guard let raw = try? reader.field(), reader.isAtEnd else { return nil }
        return try? PublicKey(algorithm: algorithm, rawRepresentation: raw)
    }

    /// An unsigned big-endian number as an SSH mpint's contents (RFC 4251 §5).
    static func mpint(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
        let digits = Array(magnitude.drop(while: { $0 == 0 }))
        guard let first = digits.first else { return [] }
        return first & 0x80 != 0 ? [0] + digits : digits
    }
}
