import Foundation
@testable import Sesame
import SesameTesting
import Testing
import SesameSecretsInUse

@Suite("One-time codes from vault items; HOTP counters advance before the code is returned")
struct VaultOneTimeCodeTests {
    static let secret = OneTimePasswordURITests.secret

    func add(_ uri: String, to fixture: TestVault, account: String = "a") async throws {
        let password = try OneTimePassword(uri: SecretBytes(utf8: uri))
        try await fixture.vault.items.add(password.uri, service: "otp", account: account)
    }

    @Test("A TOTP item gives RFC 6238's code at a given time, and the vault clock's code by default")
    func totp() async throws {
        let fixture = try await TestVault()
        try await add("otpauth://totp/a?secret=\(Self.secret)&digits=8", to: fixture)
        let code = try await fixture.vault.oneTimeCode(service: "otp", account: "a", at: Date(timeIntervalSince1970: 1_111_111_109),
                                                       operationPrompt: "Code")
        #expect(code == OneTimeCode(code: "07081804", counter: 37_037_036, expires: Date(timeIntervalSince1970: 1_111_111_110)))
        let now = fixture.machine.clock.now()
        let expected = try OneTimePassword(uri: SecretBytes(utf8: "otpauth://totp/a?secret=\(Self.secret)&digits=8")).code(at: now)
        #expect(try await fixture.vault.oneTimeCode(service: "otp", account: "a", operationPrompt: "Code") == expected)
        let modified = try await fixture.vault.items.attributes(service: "otp", account: "a").modified
        fixture.machine.clock.advance(by: 60)
        _ = try await fixture.vault.oneTimeCode(service: "otp", account: "a", operationPrompt: "Code")
        #expect(try await fixture.vault.items.attributes(service: "otp", account: "a").modified == modified, "a TOTP code writes nothing")
    }

    @Test("An HOTP item's counter is stored advanced: RFC 4226's codes in order, never one twice")
    func hotp() async throws {
        let fixture = try await TestVault()
        try await add("otpauth://hotp/h?secret=\(Self.secret)&counter=0", to: fixture)
        var codes: [String] = []
        for _ in 0..<10 {
            codes.append(try await fixture.vault.oneTimeCode(service: "otp", account: "a", operationPrompt: "Code").code)
        }
        #expect(codes == OneTimePasswordTests.rfc4226)
        let stored = try await fixture.vault.items.read(service: "otp", account: "a", operationPrompt: "Read")
        #expect(try OneTimePassword(uri: stored).kind == .hotp(counter: 10))
    }

    @Test("An item that is not a one-time password is invalidArgument, and stays as it was; a missing one is itemNotFound")
    func notOneTimePassword() async throws {
        let fixture = try await TestVault()
        try await fixture.add("plain", "hunter2", service: "otp")
        #expect(await fixture.status { _ = try await fixture.vault.oneTimeCode(service: "otp", account: "plain", operationPrompt: "C") }
            == .invalidArgument)
        #expect(try await fixture.read("plain", service: "otp") == "hunter2")
        #expect(await fixture.status { _ = try await fixture.vault.oneTimeCode(service: "otp", account: "zz", operationPrompt: "C") }
            == .itemNotFound)
    }

    @Test("SPEC D6: an HOTP item with an application password needs it for the code, and its counter still advances")
    func protected() async throws {
        let fixture = try await TestVault()
        let context = fixture.context()
        context.setCredential(SecretBytes(utf8: "pw"), type: .applicationPassword)
        let password = try OneTimePassword(uri: SecretBytes(utf8: "otpauth://hotp/h?secret=\(Self.secret)&counter=5"))
        try await fixture.vault.items.add(password.uri, service: "otp", account: "h", accessControl: .applicationPassword, context: context)
        let wrong = fixture.context()
        wrong.setCredential(SecretBytes(utf8: "nope"), type: .applicationPassword)
        #expect(await fixture.status { _ = try await fixture.vault.oneTimeCode(service: "otp", account: "h", operationPrompt: "C", context: wrong) }
            == .authFailed)
        #expect(try await fixture.vault.oneTimeCode(service: "otp", account: "h", operationPrompt: "C", context: context).code
            == OneTimePasswordTests.rfc4226[5])
        #expect(try await fixture.vault.oneTimeCode(service: "otp", account: "h", operationPrompt: "C", context: context).code
            == OneTimePasswordTests.rfc4226[6])
    }
}
