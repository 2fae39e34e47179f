#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Sesame

/// A one-time password generator: a shared secret and the parameters of
/// HOTP (RFC 4226) or TOTP (RFC 6238), as an authenticator app holds it.
///
/// Created from an `otpauth://` URI (``init(uri:)``) and stored as one: a
/// vault item's value is ``uri``, the normalized URI, which is a secret.
/// Never prints or describes its secret.
public struct OneTimePassword: Sendable, CustomStringConvertible {
    /// Time step (TOTP) or counter (HOTP).
    public let kind: OneTimePasswordKind
    /// The HMAC hash.
    public let algorithm: OneTimePasswordAlgorithm
    /// How many decimal digits a code has (6…8).
    public let digits: Int
    /// The label the URI gave, `Issuer:account` by convention; may be empty.
    public let label: String
    /// Who issued the secret, when the URI said.
    public let issuer: String?
    let secret: SecretBytes

    /// The digits a code may have: RFC 4226 asks for at least 6; 8 is the
    /// most HMAC's 31-bit truncation serves.
    public static let digitRange = 6...8

    /// The shortest secret accepted, 80 bits: the size most services issue.
    /// RFC 4226 asks for 128; anything shorter is guessable.
    public static let minimumSecretBytes = 10

    /// The longest secret accepted; far beyond every hash's block size.
    public static let maximumSecretBytes = 1024

    /// Creates a generator from its parts.
    ///
    /// - Parameters:
    ///   - secret: The shared secret (decoded, not base32).
    ///   - kind: TOTP with its period, or HOTP with the counter of the next code.
    ///   - algorithm: The HMAC hash; SHA-1 by default.
    ///   - digits: 6…8; 6 by default.
    ///   - label: `Issuer:account` by convention.
    ///   - issuer: Who issued it.
    /// - Throws: ``OneTimePasswordError`` for digits outside 6…8, a period
    ///   outside 1…86400, or a secret shorter than 80 bits or longer than 1 KiB.
    public init(
        secret: SecretBytes, kind: OneTimePasswordKind, algorithm: OneTimePasswordAlgorithm = .sha1, digits: Int = 6,
        label: String = "", issuer: String? = nil
    ) throws(OneTimePasswordError) {
        guard Self.digitRange.contains(digits) else {
            throw OneTimePasswordError("digits must be 6, 7 or 8 (got \(digits))")
        }
        if case .totp(let period) = kind, !(1...OneTimePasswordKind.maximumPeriod).contains(period) {
            throw OneTimePasswordError("period must be 1 to \(OneTimePasswordKind.maximumPeriod) seconds (got \(period))")
        }
        guard secret.count >= Self.minimumSecretBytes else {
            throw OneTimePasswordError("the secret has \(secret.count * 8) bits; at least \(Self.minimumSecretBytes * 8) are needed")
        }
        guard secret.count <= Self.maximumSecretBytes else {
            throw OneTimePasswordError("the secret is longer than \(Self.maximumSecretBytes) bytes")
        }
        self.secret = secret
        self.kind = kind
        self.algorithm = algorithm
        self.digits = digits
        self.label = label
        self.issuer = issuer
    }

    /// The code for `counter` (RFC 4226 §5.3: HMAC, dynamic truncation,
    /// modulo 10^digits). For TOTP, `counter` is the time step.
    ///
    /// - Parameter counter: The moving factor.
    /// - Returns: The code, zero-padded to ``digits``.
    public func code(counter: UInt64) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let mac: [UInt8] = secret.withUnsafeBytes { bytes in
            let key = SymmetricKey(data: bytes)
            return switch algorithm {
            case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
            case .sha256: Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
            case .sha512: Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
            }
        }
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let decimal = String(binary % modulus)
        return String(repeating: "0", count: digits - decimal.count) + decimal
    }

    /// The code valid at `date` (TOTP, RFC 6238 §4 with T0 = 0), or the
    /// code of the current counter (HOTP; `date` is not used).
    ///
    /// - Parameter date: The time the code is for.
    /// - Returns: The code, its counter or time step, and when it expires (TOTP).
    /// - Throws: ``OneTimePasswordError`` for a TOTP date before 1970.
    public func code(at date: Date) throws(OneTimePasswordError) -> OneTimeCode {
        switch kind {
        case .hotp(let counter):
            return OneTimeCode(code: code(counter: counter), counter: counter, expires: nil)
        case .totp(let period):
            let seconds = date.timeIntervalSince1970.rounded(.down)
            guard seconds >= 0, seconds < 0x1p63 else { throw OneTimePasswordError("TOTP needs a time after 1970") }
            let step = UInt64(seconds) / UInt64(period)
            let expires = Date(timeIntervalSince1970: Double((step + 1) * UInt64(period)))
            return OneTimeCode(code: code(counter: step), counter: step, expires: expires)
        }
    }

    /// The generator after one HOTP code was used: its counter plus one.
    /// TOTP generators do not change.
    ///
    /// - Returns: The generator for the next code.
    /// - Throws: ``OneTimePasswordError`` when the counter cannot grow.
    public func advanced() throws(OneTimePasswordError) -> OneTimePassword {
        guard case .hotp(let counter) = kind else { return self }
        guard counter < UInt64.max else { throw OneTimePasswordError("the HOTP counter is at its maximum") }
        return try OneTimePassword(secret: secret, kind: .hotp(counter: counter + 1), algorithm: algorithm, digits: digits,
                                   label: label, issuer: issuer)
    }

    public var description: String {
        let type = switch kind {
        case .totp(let period): "TOTP every \(period) s"
        case .hotp(let counter): "HOTP at counter \(counter)"
        }
        return "OneTimePassword(\(type), \(algorithm.rawValue), \(digits) digits, secret redacted)"
    }
}
