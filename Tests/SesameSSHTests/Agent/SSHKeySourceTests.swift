import Crypto
@testable import Sesame
import SesameTesting
@testable import SesameSSH
import Testing

/// A key held outside the vault plugs into the agent through ``SSHKeySource``
/// alone: the agent lists it, runs its checks and one-at-a-time prompting,
/// and the source signs.
@Suite("SSHKeySource: the agent serves any key source, not only the vault")
struct SSHKeySourceTests {
    /// An in-memory Ed25519 key standing for a key held elsewhere (a FIDO
    /// token, a second vault); it records what the agent asked of it.
    struct InMemoryKeySource: SSHKeySource {
        let privateKey: Curve25519.Signing.PrivateKey
        let sourceKey: SSHSourceKey
        let reasons = Locked<[String]>([])

        init() throws {
            privateKey = Curve25519.Signing.PrivateKey()
            sourceKey = SSHSourceKey(id: "token-1", label: "token",
                                     publicKey: try PublicKey(algorithm: .ed25519, rawRepresentation: privateKey.publicKey.rawRepresentation))
        }

        func keys() async throws -> [SSHSourceKey] { [sourceKey] }

        func sign(_ data: [UInt8], with key: SSHSourceKey, rsaScheme: RSASignatureScheme?, reason: String,
                  context: AuthenticationContext) async throws -> [UInt8] {
            reasons.withLock { $0.append(reason) }
            return try SSHSignature.encode(algorithm: .ed25519, rawSignature: Array(try privateKey.signature(for: data)))
        }
    }

    @Test("D7: a fake in-memory key source is listed and signs through the agent protocol; the signature verifies")
    func fakeSourceSigns() async throws {
        let fixture = try await TestVault()
        let source = try InMemoryKeySource()
        let agent = SSHAgent(sources: [source], makeContext: { fixture.context() })
        guard case .identities(let listed) = await agent.respond(to: .requestIdentities, on: SSHAgentConnection()) else {
            Issue.record("no identities answer")
            return
        }
        let blob = try #require(SSHKeyEncoding.publicKeyBlob(source.sourceKey.publicKey))
        #expect(listed.map(\.keyBlob) == [blob] && listed.map(\.comment) == ["token"])
        let data = Array("userauth request".utf8)
        guard case .signature(let signature) = await agent.respond(to: .sign(keyBlob: blob, data: data, flags: 0), on: SSHAgentConnection()) else {
            Issue.record("no signature")
            return
        }
        #expect(SSHSignature.verify(signature, of: data, by: source.sourceKey.publicKey))
        #expect(source.reasons.withLock { $0 } == ["SSH: sign with token"])
        // A source that takes no keys refuses ssh-add; the agent answers failure.
        let seed = Curve25519.Signing.PrivateKey()
        let added = try SSHAgentKey(algorithm: .ed25519, privateKey: Array(seed.rawRepresentation), publicKey: Array(seed.publicKey.rawRepresentation))
        #expect(await agent.respond(to: .addIdentity(added, comment: "x", constraints: []), on: SSHAgentConnection()).type == 5)
    }

    @Test("D7: with the vault and another source, the agent lists both and each key signs by its own source")
    func twoSources() async throws {
        let fixture = try await TestVault()
        let token = try InMemoryKeySource()
        let agent = SSHAgent(sources: [VaultKeySource(vault: fixture.vault, addedKeyAccessControl: Vault.noAccessControl), token],
                             makeContext: { fixture.context() })
        let seed = Curve25519.Signing.PrivateKey()
        let added = try SSHAgentKey(algorithm: .ed25519, privateKey: Array(seed.rawRepresentation), publicKey: Array(seed.publicKey.rawRepresentation))
        #expect(await agent.respond(to: .addIdentity(added, comment: "laptop", constraints: []), on: SSHAgentConnection()).type == 6)
        #expect(try await fixture.vault.keys.list(service: "ssh").map(\.name) == ["laptop"], "ssh-add goes to the first source")
        guard case .identities(let listed) = await agent.respond(to: .requestIdentities, on: SSHAgentConnection()) else {
            Issue.record("no identities answer")
            return
        }
        #expect(listed.map(\.comment) == ["laptop", "token"])
        for identity in listed {
            let data = Array("sign \(identity.comment)".utf8)
            guard case .signature(let signature) = await agent.respond(to: .sign(keyBlob: identity.keyBlob, data: data, flags: 0), on: SSHAgentConnection()),
                  let key = SSHSignature.publicKey(fromBlob: identity.keyBlob) else {
                Issue.record("\(identity.comment) did not sign")
                continue
            }
            #expect(SSHSignature.verify(signature, of: data, by: key))
        }
        #expect(token.reasons.withLock { $0 }.count == 1, "the vault's key signed without the token")
    }
}
