import Crypto
import Foundation
@testable import Sesame
@testable import SesameSSH
import Testing

/// What the agent's prompt says (SPEC A5): the host a login is for, and
/// for a request through a forwarded agent, the hops it came through.
@Suite("SPEC A5: the agent's prompt names the host and the forwarding hops")
struct SSHAgentReasonTests {
    static func hostKey() throws -> PublicKey {
        try PublicKey(algorithm: .ed25519, rawRepresentation: Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
    }

    static func key(label: String) throws -> SSHSourceKey {
        SSHSourceKey(vaultKey: VaultKey(service: "ssh", name: "k", label: label, algorithm: .ed25519, accessibility: .whenUnlockedThisDeviceOnly,
                 accessControl: Vault.noAccessControl, publicKey: try hostKey(), created: Date(), constraints: .none))
    }

    @Test("SPEC A5, D9: a forwarded login names every hop, first first; a local one names only its host; control characters in labels are escaped")
    func hops() throws {
        let first = try Self.hostKey(), second = try Self.hostKey()
        let key = try Self.key(label: "me\u{1B}[2J")
        let login = Array("userauth".utf8)
        let shown = "me\u{1B}[2J".escapingControlCharacters()
        #expect(!shown.contains("\u{1B}"))
        let forwarded = SSHAgent.reason(for: login, key: key, hops: [first, second], forwarded: true)
        #expect(forwarded == "SSH: log in to the host with key \(second.fingerprint), as \(shown), asked through a forwarded agent (hosts \(first.fingerprint) → \(second.fingerprint))",
                "\(forwarded)")
        let local = SSHAgent.reason(for: login, key: key, hops: [first], forwarded: false)
        #expect(local == "SSH: log in to the host with key \(first.fingerprint), as \(shown)")
        let file = SSHAgent.reason(for: Array("SSHSIG".utf8), key: key, hops: [first], forwarded: true)
        #expect(file.hasPrefix("SSH: sign a file or commit with") && file.hasSuffix("asked through a forwarded agent (hosts \(first.fingerprint))"))
    }

    @Test("SPEC D9: the prompt names the program that asks, by the name the kernel has for it, escaped")
    func client() throws {
        let key = try Self.key(label: "github")
        let named = SSHAgent.reason(for: Array("userauth".utf8), key: key, hops: [], forwarded: false, client: "`ssh` (pid 42)")
        #expect(named == "`ssh` (pid 42) wants to sign with github")
        // This test process, as a client: its name from /proc, with its pid.
        let me = try #require(SSHAgentConnection(clientProcess: getpid()).client)
        #expect(me.hasPrefix("`") && me.hasSuffix("(pid \(getpid()))"), "\(me)")
        #expect(SSHAgentConnection(clientProcess: nil).client == nil && SSHAgentConnection(clientProcess: 0).client == nil)
    }
}
