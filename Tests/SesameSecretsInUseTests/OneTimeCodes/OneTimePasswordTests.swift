import Foundation
@testable import Sesame
import Testing
import SesameSecretsInUse

@Suite("One-time codes: RFC 4226 and RFC 6238 test vectors")
struct OneTimePasswordTests {
    static let rfc4226 = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]

    @Test("RFC 4226 Appendix D: HOTP-SHA1, 6 digits, counters 0–9")
    func hotpVectors() throws {
        let password = try OneTimePassword(secret: SecretBytes(utf8: "12345678901234567890"), kind: .hotp(counter: 0))
        #expect((0..<10).map { password.code(counter: UInt64($0)) } == Self.rfc4226)
    }

    /// RFC 6238 Appendix B: time, then the SHA1, SHA256 and SHA512 codes.
    static let rfc6238: [(Double, String, String, String)] = [
        (59, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ]

    /// Appendix B's seeds: the ASCII digits repeated to the hash's length.
    static func seed(_ count: Int) -> SecretBytes {
        SecretBytes((0..<count).map { UInt8(ascii: "0") + UInt8(($0 + 1) % 10) })
    }

    @Test("RFC 6238 Appendix B: TOTP with SHA1, SHA256 and SHA512, 8 digits, 30 s")
    func totpVectors() throws {
        let sha1 = try OneTimePassword(secret: Self.seed(20), kind: .totp(period: 30), algorithm: .sha1, digits: 8)
        let sha256 = try OneTimePassword(secret: Self.seed(32), kind: .totp(period: 30), algorithm: .sha256, digits: 8)
        let sha512 = try OneTimePassword(secret: Self.seed(64), kind: .totp(period: 30), algorithm: .sha512, digits: 8)
        for (time, one, two, five) in Self.rfc6238 {
            let date = Date(timeIntervalSince1970: time)
            #expect(try sha1.code(at: date).code == one, "SHA1 at \(time)")
            #expect(try sha256.code(at: date).code == two, "SHA256 at \(time)")
            #expect(try sha512.code(at: date).code == five, "SHA512 at \(time)")
        }
    }

    @Test("A TOTP code names its time step and expires at the step's end; HOTP codes have no expiry")
    func steps() throws {
        let totp = try OneTimePassword(secret: Self.seed(20), kind: .totp(period: 30))
        let code = try totp.code(at: Date(timeIntervalSince1970: 59.9))
        #expect(code.counter == 1 && code.expires == Date(timeIntervalSince1970: 60))
        #expect(try totp.code(at: Date(timeIntervalSince1970: 60)).counter == 2)
        #expect(throws: OneTimePasswordError.self) { try totp.code(at: Date(timeIntervalSince1970: -1)) }
        let hotp = try OneTimePassword(secret: Self.seed(20), kind: .hotp(counter: 7))
        #expect(try hotp.code(at: .now) == OneTimeCode(code: Self.rfc4226[7], counter: 7, expires: nil))
        #expect(try hotp.advanced().kind == .hotp(counter: 8))
        #expect(try totp.advanced().kind == totp.kind)
        let last = try OneTimePassword(secret: Self.seed(20), kind: .hotp(counter: .max))
        #expect(throws: OneTimePasswordError.self) { try last.advanced() }
    }

    @Test("Parameters are checked: 6–8 digits, a period of 1 s to a day, a secret of 80 bits to 1 KiB")
    func parameters() throws {
        for digits in [5, 9, 0] {
            #expect(throws: OneTimePasswordError.self) { try OneTimePassword(secret: Self.seed(20), kind: .hotp(counter: 0), digits: digits) }
        }
        for period in [0, -30, 86_401] {
            #expect(throws: OneTimePasswordError.self) { try OneTimePassword(secret: Self.seed(20), kind: .totp(period: period)) }
        }
        #expect(throws: OneTimePasswordError.self) { try OneTimePassword(secret: Self.seed(9), kind: .hotp(counter: 0)) }
        #expect(throws: OneTimePasswordError.self) { try OneTimePassword(secret: Self.seed(1025), kind: .hotp(counter: 0)) }
        #expect(try OneTimePassword(secret: Self.seed(10), kind: .hotp(counter: 0), digits: 7).code(counter: 0).count == 7)
    }

    @Test("The description never shows the secret")
    func description() throws {
        let password = try OneTimePassword(uri: SecretBytes(utf8: "otpauth://totp/a?secret=JBSWY3DPEHPK3PXPJBSWY3DP"))
        #expect(!"\(password)".contains("JBSW") && "\(password)".contains("redacted"))
    }
}
