// libFuzzer target for the otpauth:// URI parser (`OneTimePassword(uri:)`),
// which reads whatever a QR code or a pasted line holds.
//
// The input is the URI's bytes. Any result is fine except a crash, a hang or
// a sanitizer report; the harness checks what the parser promises: a refusal
// is a `OneTimePasswordError` whose message does not contain the input's
// `secret=` value, and an accepted URI has 6–8 digits, a valid period, and a
// normalized form that parses back to itself and to the same codes.
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import Sesame
import SesameSecretsInUse

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = SecretBytes(UnsafeBufferPointer(start: data, count: size))
    do throws(OneTimePasswordError) {
        let password = try OneTimePassword(uri: input)
        precondition(OneTimePassword.digitRange.contains(password.digits))
        if case .totp(let period) = password.kind { precondition((1...OneTimePasswordKind.maximumPeriod).contains(period)) }
        let stored = password.uri
        let again = try OneTimePassword(uri: stored)
        precondition(again.uri.constantTimeEquals(stored), "the normalized URI does not read back to itself")
        precondition(again.kind == password.kind && again.label == password.label && again.issuer == password.issuer)
        let code = password.code(counter: 1)
        precondition(code.count == password.digits && code == again.code(counter: 1))
    } catch {
        // A base32 secret of 8+ characters must never be echoed in the message
        // (unless the input repeats it elsewhere, e.g. as another value).
        // Shorter or other values could be words of the message's own text
        // ("/tot" is in "otpauth://totp/").
        let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
        if let range = text.firstRange(of: "secret=") {
            let value = String(text[range.upperBound...].prefix { $0 != "&" && $0 != "#" && $0 != "\n" })
            let base32 = value.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains($0) }
            if value.count >= 8, base32, text.ranges(of: value).count == 1 {
                precondition(!error.message.contains(value), "the secret is in the message")
            }
        }
    }
    return 0
}

@_cdecl("FuzzOTP_main")
public func fuzzOTPMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzOTP(data, size) }
}
