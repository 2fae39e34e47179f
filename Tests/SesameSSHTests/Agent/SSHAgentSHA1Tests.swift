@testable import Sesame
import SesameTesting
@testable import SesameSSH
import Testing

/// A sign request with no flags for an RSA key asks for `ssh-rsa` (SHA-1):
/// the agent answers it for a key marked for it and refuses it, with the
/// reason naming the mark, for any other (SPEC D8).
@Suite("SSHAgent: ssh-rsa (SHA-1) only for an RSA key marked for it")
struct SSHAgentSHA1Tests {
    let log = Locked<[String]>([])

    @Test("SPEC D8: flags 0 gets an ssh-rsa signature that verifies from a marked key, SSH_AGENT_FAILURE and a logged reason naming --allow-sha1 from another; flag 2 still signs rsa-sha2-256")
    func flagsZero() async throws {
        let fixture = try await TestVault()
        let log = log
        let agent = SSHAgent(sources: [VaultKeySource(vault: fixture.vault)], configuration: .init(log: { line in log.withLock { $0.append(line) } }),
                             makeContext: { fixture.context() })
        var keys: [String: VaultKey] = [:]
        for (name, marked) in [("old", true), ("new", false)] {
            keys[name] = try await fixture.vault.keys.create(service: "ssh", name: name, algorithm: .rsa2048, label: nil,
                                                           accessibility: .whenUnlockedThisDeviceOnly, accessControl: Vault.noAccessControl,
                                                           constraints: KeyConstraints(allowsSHA1Signatures: marked), context: nil)
        }
        let data = Array("session".utf8)
        let old = try #require(keys["old"]), new = try #require(keys["new"])
        let oldBlob = try #require(SSHKeyEncoding.publicKeyBlob(old.publicKey)), newBlob = try #require(SSHKeyEncoding.publicKeyBlob(new.publicKey))
        guard case .signature(let blob) = await agent.respond(to: .sign(keyBlob: oldBlob, data: data, flags: 0), on: SSHAgentConnection()) else {
            Issue.record("the marked key did not sign ssh-rsa: \(log.withLock { $0 })")
            return
        }
        let name = SSHAgentMessages.string("ssh-rsa")
        #expect(blob.starts(with: name))
        let signature = Array(blob.dropFirst(name.count + 4))
        #expect(blob.count == name.count + 4 + 256 && old.publicKey.isValidSignature(signature, for: data, rsaScheme: .pkcs1SHA1))
        #expect(SSHSignature.verify(blob, of: data, by: old.publicKey) == false, "a verifier that trusts only SHA-2 still refuses it")

        #expect(await agent.respond(to: .sign(keyBlob: newBlob, data: data, flags: 0), on: SSHAgentConnection()).type == 5)
        #expect(log.withLock { $0 }.contains { $0.contains("ssh-rsa (SHA-1) signature was asked of new, which is not marked for SHA-1") && $0.contains("--allow-sha1") },
                "\(log.withLock { $0 })")
        guard case .signature(let sha256) = await agent.respond(to: .sign(keyBlob: newBlob, data: data, flags: 2), on: SSHAgentConnection()) else {
            Issue.record("rsa-sha2-256")
            return
        }
        #expect(SSHSignature.verify(sha256, of: data, by: new.publicKey))
    }
}
