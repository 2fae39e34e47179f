import Sesame
/// The `otpauth://` form (Google's Key Uri Format), which is also how a
/// one-time password is stored in the vault.
extension OneTimePassword {
    /// Parses an `otpauth://totp/…` or `otpauth://hotp/…` URI, strictly.
    ///
    /// `secret` is required (RFC 4648 base32, either case, padding optional);
    /// `algorithm` is SHA1 (default), SHA256 or SHA512; `digits` 6 (default)
    /// to 8; `period` 1…86400 seconds (TOTP, default 30); `counter` is
    /// required for HOTP. Surrounding white space is ignored, unknown
    /// parameters too (apps add `image=` and the like).
    ///
    /// - Parameter uri: The URI's bytes; a secret.
    /// - Throws: ``OneTimePasswordError`` naming what is wrong; the message
    ///   never contains the secret.
    public init(uri: SecretBytes) throws(OneTimePasswordError) {
        // `withUnsafeBytes` rethrows untyped errors; a Result keeps the type.
        var parts = try uri.withUnsafeBytes { bytes in Result { () throws(OneTimePasswordError) in try KeyURI.parse(bytes) } }.get()
        defer { parts.wipe() }
        guard let encoded = parts.secret, !encoded.isEmpty else {
            throw OneTimePasswordError("the URI has no secret= parameter")
        }
        guard var decoded = Base32.decode(encoded) else {
            throw OneTimePasswordError("the secret is not base32 (RFC 4648: letters A–Z and digits 2–7, optional = padding)")
        }
        let secret = SecretBytes(decoded)
        wipe(&decoded)
        let parameters = parts.parameters
        let kind: OneTimePasswordKind
        switch parts.type {
        case "totp":
            let period = try parameters["period"].map { text throws(OneTimePasswordError) in try Self.number(text, "period") }
            kind = .totp(period: Int(clamping: period ?? UInt64(OneTimePasswordKind.defaultPeriod)))
        case "hotp":
            guard let counter = parameters["counter"] else { throw OneTimePasswordError("an hotp URI needs a counter= parameter") }
            kind = .hotp(counter: try Self.number(counter, "counter"))
        default:
            throw OneTimePasswordError("the type must be totp or hotp (otpauth://totp/… or otpauth://hotp/…)")
        }
        let algorithm = try parameters["algorithm"].map { name throws(OneTimePasswordError) in
            guard let algorithm = OneTimePasswordAlgorithm(rawValue: name.uppercased()) else {
                throw OneTimePasswordError("algorithm must be SHA1, SHA256 or SHA512")
            }
            return algorithm
        } ?? .sha1
        let digits = try parameters["digits"].map { text throws(OneTimePasswordError) in try Self.number(text, "digits") } ?? 6
        let issuer = parameters["issuer"].flatMap { $0.isEmpty ? nil : $0 }
        try self.init(secret: secret, kind: kind, algorithm: algorithm, digits: Int(clamping: digits), label: parts.label, issuer: issuer)
    }

    /// The normalized URI: lower-case type, the label, then `secret` (upper
    /// case, unpadded), `issuer`, `algorithm`, `digits` and `period` or
    /// `counter`, always spelled out. This is the stored form of a one-time
    /// password; ``init(uri:)`` reads it back unchanged.
    ///
    /// - Returns: The URI; a secret, wiped when released.
    public var uri: SecretBytes {
        // One allocation up front: growing would leave copies of the secret behind.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + 3 * (label.utf8.count + (issuer?.utf8.count ?? 0)) + 2 * secret.count)
        bytes += Array("otpauth://".utf8)
        switch kind {
        case .totp: bytes += Array("totp/".utf8)
        case .hotp: bytes += Array("hotp/".utf8)
        }
        bytes += KeyURI.percentEncode(label.utf8, keeping: ":@")
        bytes += Array("?secret=".utf8)
        var encoded = secret.withUnsafeBytes { Base32.encode($0) }
        bytes += encoded
        wipe(&encoded)
        if let issuer { bytes += Array("&issuer=".utf8) + KeyURI.percentEncode(issuer.utf8) }
        bytes += Array("&algorithm=\(algorithm.rawValue)&digits=\(digits)".utf8)
        switch kind {
        case .totp(let period): bytes += Array("&period=\(period)".utf8)
        case .hotp(let counter): bytes += Array("&counter=\(counter)".utf8)
        }
        defer { wipe(&bytes) }
        return SecretBytes(bytes)
    }

    /// A decimal parameter: digits only (no sign, no space), at most `UInt64.max`.
    private static func number(_ text: String, _ name: String) throws(OneTimePasswordError) -> UInt64 {
        guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let value = UInt64(text)
        else { throw OneTimePasswordError("\(name) must be a decimal number (got \"\(text.prefix(20))\")") }
        return value
    }
}
