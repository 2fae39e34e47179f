import Foundation
import Sesame
import SesameTesting
import Testing

/// Key handles: a protected key named by bytes that only its vault opens.
@Suite("SPEC P4: key handles open in their vault only, for their service and binding")
struct VaultKeyHandleTests {
    @Test("SPEC P4: a handle opens to its key's name in its vault, for its service and binding, and nowhere else")
    func handles() async throws {
        let directory = try TemporaryDirectory()
        let machine = TestMachine()
        let vault = try await Vault.create(at: directory.path + "/a.sqlite", slots: [.device()], authenticators: machine.authenticators).vault
        let other = try await Vault.create(at: directory.path + "/b.sqlite", slots: [.device()], authenticators: machine.authenticators).vault
        let binding = Array("rp-hash-of-example.com".utf8)
        let handle = try vault.keys.handle(service: "passkeys", name: "0123abcd", binding: binding)
        #expect(vault.keys.name(fromHandle: handle, service: "passkeys", binding: binding) == "0123abcd")
        #expect(vault.keys.name(fromHandle: handle, service: "passkeys", binding: Array("rp-hash-of-evil.example".utf8)) == nil)
        #expect(vault.keys.name(fromHandle: handle, service: "ssh", binding: binding) == nil)
        #expect(other.keys.name(fromHandle: handle, service: "passkeys", binding: binding) == nil)
        // Two handles to one key share no bytes a relying party could link.
        let again = try vault.keys.handle(service: "passkeys", name: "0123abcd", binding: binding)
        #expect(again != handle && vault.keys.name(fromHandle: again, service: "passkeys", binding: binding) == "0123abcd")
        #expect(!handle.contains(subsequence: Array("0123abcd".utf8)))
        for index in handle.indices {
            var changed = handle
            changed[index] ^= 0x01
            #expect(vault.keys.name(fromHandle: changed, service: "passkeys", binding: binding) == nil)
        }
        #expect(vault.keys.name(fromHandle: [], service: "passkeys", binding: binding) == nil)
        #expect(vault.keys.name(fromHandle: Array(handle.prefix(27)), service: "passkeys", binding: binding) == nil)
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
