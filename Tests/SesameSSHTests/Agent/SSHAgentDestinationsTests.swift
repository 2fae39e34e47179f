import Crypto
@testable import Sesame
import SesameTesting
@testable import SesameSSH
import Testing

/// `ssh-add -h` through ``SSHAgent`` over a real vault (SPEC D8):
/// the destinations are stored with the key, a disjoint list is refused
/// rather than dropped, and the key is listed and used only where they
/// allow, judged on verified `session-bind@openssh.com` bindings.
@Suite("SSHAgent: ssh-add -h keys stored in the vault and enforced")
struct SSHAgentDestinationsTests {
    let host = Curve25519.Signing.PrivateKey(), other = Curve25519.Signing.PrivateKey()
    let log = Locked<[String]>([])

    func agent(_ fixture: TestVault) -> SSHAgent {
        let log = log
        return SSHAgent(sources: [VaultKeySource(vault: fixture.vault, addedKeyAccessControl: Vault.noAccessControl)],
                        configuration: .init(log: { line in log.withLock { $0.append(line) } }),
                        makeContext: { fixture.context() })
    }

    func destination(to key: Curve25519.Signing.PrivateKey, _ name: String) throws -> KeyDestination {
        let publicKey = try PublicKey(algorithm: .ed25519, rawRepresentation: Array(key.publicKey.rawRepresentation))
        return KeyDestination(to: .init(hostname: name, hostKeys: [.init(blob: try #require(SSHKeyEncoding.publicKeyBlob(publicKey)))]))
    }

    /// A `session-bind@openssh.com` the host really signed.
    func bind(_ key: Curve25519.Signing.PrivateKey, session: [UInt8]) throws -> SSHAgentRequest {
        let publicKey = try PublicKey(algorithm: .ed25519, rawRepresentation: Array(key.publicKey.rawRepresentation))
        let signature = SSHAgentMessages.string("ssh-ed25519") + SSHAgentMessages.string(Array(try key.signature(for: session)))
        return .sessionBind(hostKey: try #require(SSHKeyEncoding.publicKeyBlob(publicKey)), sessionIdentifier: session, signature: signature, isForwarding: false)
    }

    @Test("SPEC D8: the list is stored with the key; listed to a connection bound to its host, hidden from one bound elsewhere; a disjoint re-add is refused and logged")
    func storedAndEnforced() async throws {
        let fixture = try await TestVault()
        let agent = agent(fixture)
        let seed = Curve25519.Signing.PrivateKey()
        let key = try SSHAgentKey(algorithm: .ed25519, privateKey: Array(seed.rawRepresentation), publicKey: Array(seed.publicKey.rawRepresentation))
        let toHost = try destination(to: host, "hosta")
        #expect(await agent.respond(to: .addIdentity(key, comment: "me", constraints: [.destinations([toHost])]), on: SSHAgentConnection()).type == 6)
        #expect(try await fixture.vault.keys.list(service: "ssh").map(\.constraints.destinations) == [[toHost]])

        let right = SSHAgentConnection(), wrong = SSHAgentConnection()
        #expect(await agent.respond(to: try bind(host, session: [1, 2, 3]), on: right).type == 6)
        #expect(await agent.respond(to: try bind(other, session: [4, 5, 6]), on: wrong).type == 6)
        guard case .identities(let listed) = await agent.respond(to: .requestIdentities, on: right),
              case .identities(let hidden) = await agent.respond(to: .requestIdentities, on: wrong) else { Issue.record("identities"); return }
        #expect(listed.count == 1 && hidden.isEmpty)
        #expect(await agent.respond(to: .sign(keyBlob: listed[0].keyBlob, data: [1], flags: 0), on: SSHAgentConnection()).type == 5)
        #expect(log.withLock { $0 }.contains { $0.contains("me refused: it is restricted to destinations (ssh-add -h) and this connection is bound to no SSH session") })

        let elsewhere = try destination(to: other, "hostb")
        #expect(await agent.respond(to: .addIdentity(key, comment: "me", constraints: [.destinations([elsewhere])]), on: SSHAgentConnection()).type == 5)
        #expect(log.withLock { $0 }.contains { $0.contains("already restricted to other destinations") })
        #expect(try await fixture.vault.keys.list(service: "ssh").map(\.constraints.destinations) == [[toHost]], "not widened, not dropped")
    }
}
