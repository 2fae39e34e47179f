import Sesame
import SesameTesting
import Testing

@Suite("SPEC A11: credentials")
struct CredentialsTests {
    @Test("SPEC A11: an application password can be set, checked and cleared")
    func setAndClear() {
        let context = TestMachine().context()
        #expect(!context.isCredentialSet(.applicationPassword))
        #expect(context.setCredential(SecretBytes(utf8: "server-issued-token-key"), type: .applicationPassword))
        #expect(context.isCredentialSet(.applicationPassword))
        #expect(context.setCredential(nil, type: .applicationPassword))
        #expect(!context.isCredentialSet(.applicationPassword))
    }

    @Test("SPEC A11: secrets never show in descriptions and compare in constant time")
    func secretBytes() {
        let secret = SecretBytes(utf8: "hunter2")
        #expect(!String(describing: secret).contains("hunter2"))
        #expect(!String(reflecting: secret).contains("hunter2"))
        #expect(secret.constantTimeEquals(SecretBytes(utf8: "hunter2")))
        #expect(!secret.constantTimeEquals(SecretBytes(utf8: "hunter3")))
        #expect(!secret.constantTimeEquals(SecretBytes(utf8: "hunter22")))
        #expect(secret.count == 7)
    }
}
