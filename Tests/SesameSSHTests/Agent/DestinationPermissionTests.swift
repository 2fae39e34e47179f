import Crypto
@testable import Sesame
import Testing
@testable import SesameSSH

private typealias M = SSHAgentMessages

/// Who may list and use a key restricted with `ssh-add -h` (SPEC D8),
/// decided as OpenSSH's agent decides it (`identity_permitted`,
/// `process_sign_request2`) from a connection's session bindings.
@Suite("DestinationPermission: ssh-add -h keys against session-bind hops")
struct DestinationPermissionTests {
    static func host() throws -> PublicKey {
        try PublicKey(algorithm: .ed25519, rawRepresentation: Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation))
    }

    let a: PublicKey, b: PublicKey, c: PublicKey
    let clientKey: PublicKey

    init() throws {
        a = try Self.host()
        b = try Self.host()
        c = try Self.host()
        clientKey = try Self.host()
    }

    func hop(_ key: PublicKey, _ name: String, user: String? = nil) throws -> KeyDestination.Hop {
        KeyDestination.Hop(user: user, hostname: name, hostKeys: [KeyDestination.HostKey(blob: try #require(SSHKeyEncoding.publicKeyBlob(key)))])
    }

    func bound(_ key: PublicKey, _ session: UInt8, forwarded: Bool) -> SSHSessionBinding {
        SSHSessionBinding(hostKey: key, sessionIdentifier: [UInt8](repeating: session, count: 32), forwarded: forwarded)
    }

    /// A `publickey` or `publickey-hostbound-v00@openssh.com` request, as ssh signs it.
    func userauth(session: UInt8, user: String = "root", hostKey: PublicKey? = nil, service: String = "ssh-connection") throws -> [UInt8] {
        let blob = try #require(SSHKeyEncoding.publicKeyBlob(clientKey))
        let method = hostKey == nil ? "publickey" : "publickey-hostbound-v00@openssh.com"
        var hostBlob: [UInt8] = []
        if let hostKey { hostBlob = M.string(try #require(SSHKeyEncoding.publicKeyBlob(hostKey))) }
        return M.string([UInt8](repeating: session, count: 32)) + [50] + M.string(user) + M.string(service) + M.string(method) + [1]
            + M.string("ssh-ed25519") + M.string(blob) + hostBlob
    }

    @Test("SPEC D8: -h hosta: listed locally and to hosta; signs a login to hosta; refused for hostb; hidden when the hop to hosta is a forwarding")
    func oneHost() throws {
        let only = [KeyDestination(to: try hop(a, "hosta"))]
        #expect(DestinationPermission.refusal(only, hops: [], bindAttempted: false, user: nil) == nil)
        #expect(DestinationPermission.refusal(only, hops: [], bindAttempted: true, user: nil) != nil, "a failed binding is no local use")
        #expect(DestinationPermission.refusal(only, hops: [bound(a, 1, forwarded: false)], bindAttempted: true, user: nil) == nil)
        #expect(DestinationPermission.refusal(only, hops: [bound(b, 1, forwarded: false)], bindAttempted: true, user: nil) != nil)
        #expect(DestinationPermission.refusal(only, hops: [bound(a, 1, forwarded: true)], bindAttempted: true, user: nil) != nil,
                "allowed at hosta but nowhere from it: hidden from hosta's forwarded agent")
        #expect(DestinationPermission.signRefusal(only, data: try userauth(session: 1), key: clientKey,
                                                  hops: [bound(a, 1, forwarded: false)], bindAttempted: true) == nil)
        #expect(DestinationPermission.signRefusal(only, data: try userauth(session: 1), key: clientKey,
                                                  hops: [bound(b, 1, forwarded: false)], bindAttempted: true) != nil)
        #expect(DestinationPermission.signRefusal(only, data: try userauth(session: 2, hostKey: b), key: clientKey,
                                                  hops: [bound(a, 1, forwarded: true), bound(b, 2, forwarded: false)], bindAttempted: true) != nil)
    }

    @Test("SPEC D8: -h hosta -h 'hosta>hostb': the forwarded hop to hostb is allowed, to hostc not; a login on the forwarding hop itself is not")
    func forwardedHop() throws {
        let list = [KeyDestination(to: try hop(a, "hosta")), KeyDestination(from: try hop(a, "hosta"), to: try hop(b, "hostb"))]
        let viaA = [bound(a, 1, forwarded: true), bound(b, 2, forwarded: false)]
        #expect(DestinationPermission.refusal(list, hops: [bound(a, 1, forwarded: true)], bindAttempted: true, user: nil) == nil)
        #expect(DestinationPermission.refusal(list, hops: viaA, bindAttempted: true, user: nil) == nil)
        #expect(DestinationPermission.signRefusal(list, data: try userauth(session: 2, hostKey: b), key: clientKey, hops: viaA, bindAttempted: true) == nil)
        #expect(DestinationPermission.signRefusal(list, data: try userauth(session: 3, hostKey: c), key: clientKey,
                                                  hops: [bound(a, 1, forwarded: true), bound(c, 3, forwarded: false)], bindAttempted: true) != nil)
        #expect(DestinationPermission.signRefusal(list, data: try userauth(session: 1), key: clientKey,
                                                  hops: [bound(a, 1, forwarded: true)], bindAttempted: true) != nil)
        // hostb is not allowed from the origin directly.
        #expect(DestinationPermission.signRefusal(list, data: try userauth(session: 2), key: clientKey,
                                                  hops: [bound(b, 2, forwarded: false)], bindAttempted: true) != nil)
    }

    @Test("SPEC D8: a signature needs a bound connection, an SSH login, the last bound session and host, and the user pattern")
    func signChecks() throws {
        let list = [KeyDestination(to: try hop(a, "hosta", user: "dep*"))]
        let hops = [bound(a, 1, forwarded: false)]
        func refused(_ data: [UInt8], hops: [SSHSessionBinding]) -> Bool {
            DestinationPermission.signRefusal(list, data: data, key: clientKey, hops: hops, bindAttempted: true) != nil
        }
        func refused(_ data: [UInt8]) -> Bool { refused(data, hops: hops) }
        #expect(!refused(try userauth(session: 1, user: "deploy")))
        #expect(!refused(try userauth(session: 1, user: "deploy", hostKey: a)))
        #expect(refused(try userauth(session: 1, user: "deploy"), hops: []), "unbound")
        #expect(refused(try userauth(session: 1, user: "root")), "user")
        #expect(refused(try userauth(session: 9, user: "deploy")), "another session")
        #expect(refused(try userauth(session: 1, user: "deploy", hostKey: b)), "another host key")
        #expect(refused(try userauth(session: 1, user: "deploy", service: "other")), "not ssh-connection")
        #expect(refused(Array("SSHSIG".utf8) + [1, 2, 3]), "not a login")
        #expect(refused(try userauth(session: 1, user: "deploy") + [0]), "trailing bytes")
        // Unrestricted keys are not this check's business.
        #expect(DestinationPermission.signRefusal([], data: [1], key: clientKey, hops: [], bindAttempted: false) == nil)
    }

    @Test("SPEC D8: a CA key never matches a plain host key (Sesame verifies no host certificates)")
    func certificateAuthority() throws {
        let list = [KeyDestination(to: KeyDestination.Hop(hostname: "hosta", hostKeys: [.init(blob: try #require(SSHKeyEncoding.publicKeyBlob(a)), isCertificateAuthority: true)]))]
        #expect(!DestinationPermission.permitted(list, from: nil, to: a, user: nil))
    }

    @Test("SPEC D8: user patterns match as OpenSSH's match_pattern: * and ?", arguments: [
        ("root", "root", true), ("root", "ro*", true), ("root", "r??t", true), ("root", "*", true), ("root", "*t", true),
        ("root", "r*x", false), ("root", "roo", false), ("", "*", true), ("", "?", false), ("aab", "*ab", true), ("abc", "a*b*c", true),
    ])
    func patterns(text: String, pattern: String, matches: Bool) {
        #expect(DestinationPermission.matchesPattern(Array(text.utf8), Array(pattern.utf8)) == matches)
    }
}
