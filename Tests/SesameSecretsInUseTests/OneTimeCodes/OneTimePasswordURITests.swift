import Foundation
@testable import Sesame
import Testing
import SesameSecretsInUse

@Suite("One-time codes: otpauth:// URIs (Key Uri Format), good and hostile")
struct OneTimePasswordURITests {
    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  // "12345678901234567890"

    static func parse(_ text: String) throws -> OneTimePassword {
        try OneTimePassword(uri: SecretBytes(utf8: text))
    }

    static func text(_ secret: SecretBytes) -> String {
        secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test("Defaults: TOTP, SHA1, 6 digits, 30 s; the label and issuer are kept; RFC 4226's secret gives its codes")
    func defaults() throws {
        let password = try Self.parse("otpauth://totp/ACME%20Co:alice@example.com?secret=\(Self.secret)&issuer=ACME%20Co")
        #expect(password.kind == .totp(period: 30) && password.algorithm == .sha1 && password.digits == 6)
        #expect(password.label == "ACME Co:alice@example.com" && password.issuer == "ACME Co")
        let hotp = try Self.parse("otpauth://hotp/x?secret=\(Self.secret)&counter=3")
        #expect(try hotp.code(at: .now).code == OneTimePasswordTests.rfc4226[3])
    }

    @Test("Lenient where the format is: case of scheme, type, secret and algorithm; padding; white space around; unknown parameters")
    func lenient() throws {
        let uris = [
            "OTPAUTH://TOTP/a?SECRET=\(Self.secret.lowercased())&algorithm=sha256&digits=8&period=60",
            "  otpauth://totp/a?secret=\(Self.secret)&algorithm=SHA256&digits=8&period=60&image=https%3A%2F%2Fx\n",
            "otpauth://totp/a?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&&algorithm=SHA256&digits=8&period=60",
        ]
        for uri in uris {
            let password = try Self.parse(uri)
            #expect(password.kind == .totp(period: 60) && password.algorithm == .sha256 && password.digits == 8)
            #expect(password.code(counter: 5) == (try Self.parse("otpauth://totp/a?secret=\(Self.secret)&algorithm=SHA256&digits=8")).code(counter: 5))
        }
        // 10 bytes: 16 symbols, no padding needed; 11 bytes: 18 symbols, padded to 24.
        #expect(try Self.parse("otpauth://totp/a?secret=GEZDGNBVGY3TQOJQGE%3D%3D%3D%3D%3D%3D").digits == 6)
        #expect(try Self.parse("otpauth://totp/a?secret=GEZDGNBVGY3TQOJQGE").digits == 6)
    }

    @Test("The stored form is the normalized URI and reads back to the same URI", arguments: [
        "otpauth://totp/ACME%20Co:al%C3%AFce?secret=gezdgnbvgy3tqojqgezdgnbvgy3tqojq&issuer=A%26B",
        "otpauth://hotp/h?secret=\(secret)&counter=18446744073709551614&digits=7&algorithm=SHA512",
        "otpauth://totp/?secret=\(secret)&period=1",
    ])
    func normalized(uri: String) throws {
        let password = try Self.parse(uri)
        let stored = password.uri
        let again = try OneTimePassword(uri: stored)
        #expect(Self.text(again.uri) == Self.text(stored))
        #expect(again.kind == password.kind && again.label == password.label && again.issuer == password.issuer)
        #expect(again.code(counter: 42) == password.code(counter: 42))
        #expect(Self.text(stored).contains("secret=\(Self.secret)&"))
    }

    @Test("Hostile or broken URIs are refused with a reason that never contains the secret", arguments: [
        ("https://example.com/?secret=\(secret)", "otpauth://"),
        ("otpauth://motp/a?secret=\(secret)", "totp or hotp"),
        ("otpauth://totp/a?issuer=x", "no secret"),
        ("otpauth://totp/a?secret=", "no secret"),
        ("otpauth://totp/a?secret=\(secret)1", "base32"),
        ("otpauth://totp/a?secret=\(secret)G", "base32"),
        ("otpauth://totp/a?secret=GEZDGNBVGY3TQOJQGE=", "base32"),
        ("otpauth://totp/a?secret=\(secret)&secret=\(secret)", "twice"),
        ("otpauth://totp/a?secret=\(secret)&digits=5", "digits"),
        ("otpauth://totp/a?secret=\(secret)&digits=9", "digits"),
        ("otpauth://totp/a?secret=\(secret)&digits=+6", "digits"),
        ("otpauth://totp/a?secret=\(secret)&digits=6x", "digits"),
        ("otpauth://totp/a?secret=\(secret)&period=0", "period"),
        ("otpauth://totp/a?secret=\(secret)&period=-30", "period"),
        ("otpauth://totp/a?secret=\(secret)&period=99999999999999999999", "period"),
        ("otpauth://totp/a?secret=\(secret)&algorithm=MD5", "algorithm"),
        ("otpauth://hotp/a?secret=\(secret)", "counter"),
        ("otpauth://hotp/a?secret=\(secret)&counter=1e3", "counter"),
        ("otpauth://totp/a?secret=%G1\(secret)", "%"),
        ("otpauth://totp/a?secret=\(secret)%", "%"),
        ("otpauth://totp/a b?secret=\(secret)", "character"),
        ("otpauth://totp/a?secret=\(secret)\notpauth://totp/b", "character"),
        ("otpauth://totp/a?secret=\(secret)#x", "fragment"),
        ("otpauth://totp/a?\(secret)", "no value"),
        ("otpauth://totp/a?secret=GEZDGNBVGY3TQ", "bits"),
        ("otpauth://totp/%FF?secret=\(secret)", "UTF-8"),
        ("otpauth://totp/a?secret=\(secret)&issuer=%FF", "UTF-8"),
        ("", "otpauth://"),
    ])
    func hostile(uri: String, reason: String) {
        do {
            _ = try Self.parse(uri)
            Issue.record("accepted \(uri)")
        } catch let error as OneTimePasswordError {
            #expect(error.message.contains(reason), "\(error.message)")
            #expect(!error.message.contains("GEZDGNBV"), "the secret is in the message: \(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
