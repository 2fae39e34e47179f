@testable import Sesame
import SesameTesting
import Testing

/// SPEC D8: `ssh-add -h`'s destination list is stored with the key,
/// sealed in its constraints record, and only ever narrowed.
@Suite("SPEC D8: a key's destination list stored with it")
struct VaultKeyDestinationsTests {
    static let hostA = KeyDestination.HostKey(blob: [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + [UInt8](repeating: 1, count: 32))
    static let hostB = KeyDestination.HostKey(blob: [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + [UInt8](repeating: 2, count: 32),
                                              isCertificateAuthority: true)
    static let toA = KeyDestination(to: .init(hostname: "hosta", hostKeys: [hostA]))
    static let aToB = KeyDestination(from: .init(hostname: "hosta", hostKeys: [hostA]), to: .init(user: "de\u{1b}ploy*", hostname: "hostb", hostKeys: [hostB, hostA]))

    @Test("SPEC D8: destinations (hops, users, CA flags) read back as stored, in another vault instance too")
    func storedWithTheKey() async throws {
        let fixture = try await TestVault()
        let constraints = KeyConstraints(confirmEachUse: true, destinations: [Self.toA, Self.aToB])
        let added = try await VaultKeyConstraintsTests.addKey(fixture, constraints: constraints)
        #expect(added.constraints == constraints)
        #expect(try await fixture.vault.keys.key(service: "ssh", name: "k").constraints == constraints)
        let reopened = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        #expect(try await reopened.keys.key(service: "ssh", name: "k").constraints == constraints)
    }

    @Test("SPEC D8: the record keeps version 2 without destinations (older Sesames read it), and version 3 round-trips; garbage after it is refused")
    func recordVersions() throws {
        let plain = KeyConstraintsRecord(constraints: KeyConstraints(confirmEachUse: true), since: 5)
        #expect(plain.encoded.first == 2)
        #expect(try KeyConstraintsRecord(decoding: plain.encoded) == plain)
        let restricted = KeyConstraintsRecord(constraints: KeyConstraints(destinations: [Self.toA, Self.aToB]), since: 5)
        #expect(restricted.encoded.first == 3)
        #expect(try KeyConstraintsRecord(decoding: restricted.encoded) == restricted)
        #expect(throws: ByteReaderError.self) { try KeyConstraintsRecord(decoding: restricted.encoded + [0]) }
        for length in 0..<restricted.encoded.count {
            #expect(throws: ByteReaderError.self) { try KeyConstraintsRecord(decoding: Array(restricted.encoded.prefix(length))) }
        }
    }

    @Test("SPEC D8: adding the key again narrows its destinations to those both lists share, and never widens or drops them")
    func onlyNarrowed() {
        let both = KeyConstraints(destinations: [Self.toA, Self.aToB])
        #expect(KeyConstraints(destinations: [Self.toA]).tightened(by: both).destinations == [Self.toA])
        #expect(both.tightened(by: KeyConstraints(destinations: [Self.toA])).destinations == [Self.toA])
        #expect(KeyConstraints(destinations: [Self.toA]).tightened(by: .none).destinations == [Self.toA])
        #expect(KeyConstraints.none.tightened(by: both).destinations == both.destinations)
        #expect(KeyConstraints(destinations: [Self.toA]).tightened(by: KeyConstraints(destinations: [Self.aToB])).destinations == [Self.toA])
    }
}
