import Crypto
@testable import Sesame
import SesameTesting
@testable import SesameSSH
import Testing

/// A sign request finds its key by the name the last listing gave its blob
/// and reads only that row (so a signature costs one row, not a scan). These guard
/// that shortcut: a name that now holds other key material, or nothing,
/// must not sign with the blob it used to have.
@Suite("SSHAgent: a sign request reads its key's row by the listed name, and only while the row still holds that key")
struct SSHAgentSignLookupTests {
    func agent(_ fixture: TestVault) -> SSHAgent {
        SSHAgent(sources: [VaultKeySource(vault: fixture.vault, addedKeyAccessControl: Vault.noAccessControl)], makeContext: { fixture.context() })
    }

    func add(_ agent: SSHAgent, comment: String) async throws -> [UInt8] {
        let seed = Curve25519.Signing.PrivateKey()
        let key = try SSHAgentKey(algorithm: .ed25519, privateKey: Array(seed.rawRepresentation), publicKey: Array(seed.publicKey.rawRepresentation))
        #expect(await agent.respond(to: .addIdentity(key, comment: comment, constraints: []), on: SSHAgentConnection()).type == 6)
        return try #require(SSHKeyEncoding.publicKeyBlob(try PublicKey(algorithm: .ed25519, rawRepresentation: Array(seed.publicKey.rawRepresentation))))
    }

    func sign(_ agent: SSHAgent, _ blob: [UInt8]) async -> UInt8 {
        await agent.respond(to: .sign(keyBlob: blob, data: [1, 2, 3], flags: 0), on: SSHAgentConnection()).type
    }

    @Test("SPEC D9: ssh-add with a comment holding control characters is accepted, as by OpenSSH's agent; the label and the listed comment are escaped")
    func controlCharactersInComment() async throws {
        let fixture = try await TestVault()
        let agent = agent(fixture)
        let blob = try await add(agent, comment: "laptop\u{1B}[2J")
        #expect(try await fixture.vault.keys.list(service: "ssh").map(\.label) == ["laptop\\e[2J"])
        guard case .identities(let listed) = await agent.respond(to: .requestIdentities, on: SSHAgentConnection()) else { Issue.record("identities"); return }
        #expect(listed.map(\.keyBlob) == [blob] && listed.map(\.comment) == ["laptop\\e[2J"])
        #expect(await sign(agent, blob) == 14)
    }

    @Test("SPEC D7: a name re-used for another key signs only with the new key's blob; a deleted key's blob signs with nothing")
    func renamedAndDeleted() async throws {
        let fixture = try await TestVault()
        let agent = agent(fixture)
        let first = try await add(agent, comment: "laptop")
        guard case .identities(let listed) = await agent.respond(to: .requestIdentities, on: SSHAgentConnection()) else { Issue.record("identities"); return }
        #expect(listed.map(\.keyBlob) == [first])
        #expect(await sign(agent, first) == 14)

        // Same name, other key material: the listed name now leads to a row that is not this blob's.
        try await fixture.vault.keys.delete(service: "ssh", name: "laptop")
        let second = try await add(agent, comment: "laptop")
        #expect(try await fixture.vault.keys.list(service: "ssh").map(\.name) == ["laptop"])
        #expect(await sign(agent, first) == 5)
        #expect(await sign(agent, second) == 14)

        try await fixture.vault.keys.delete(service: "ssh", name: "laptop")
        #expect(await sign(agent, second) == 5)
    }
}
