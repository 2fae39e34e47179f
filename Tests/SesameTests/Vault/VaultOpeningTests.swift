import Sesame
import SesameTesting
import Testing

/// `Vault.open(at:deviceKeyStore:authenticators:passcode:failure:)`: the one
/// order every caller opens a vault in (LinuxMachine and `sesame` build on it).
@Suite("E2: a vault opens by its device key, and by the passcode only when that cannot open it")
struct VaultOpeningTests {
    private struct Refused: Error {}
    private let passcode = SecretBytes(utf8: "vault passcode")

    @Test("E2: the device key opens the vault; the passcode closure is never called")
    func deviceKeyFirst() async throws {
        let keys = InMemoryDeviceKeyStore()
        let fixture = try await TestVault(slots: [.device(keyStore: keys), .passcode(passcode, cost: .testing)])
        var asked = 0
        _ = try await Vault.open(at: fixture.path, deviceKeyStore: keys, authenticators: fixture.machine.authenticators,
                                 passcode: { (_: VaultError) async throws(Refused) -> SecretBytes in
            asked += 1
            throw Refused()
        }, failure: { _ in Refused() })
        #expect(asked == 0)
    }

    @Test("E2, E3: a passcode-only vault asks once, says why (locked), and a wrong passcode comes back through failure")
    func passcodeOnly() async throws {
        let fixture = try await TestVault(slots: [.passcode(passcode, cost: .testing)])
        var reasons: [VaultError.Status] = []
        _ = try await Vault.open(at: fixture.path, authenticators: fixture.machine.authenticators,
                                 passcode: { (locked: VaultError) async throws(VaultError) -> SecretBytes in
            reasons.append(locked.status)
            return passcode
        }, failure: { $0 })
        #expect(reasons == [.locked])

        let wrong = await #expect(throws: VaultError.self) {
            _ = try await Vault.open(at: fixture.path, authenticators: fixture.machine.authenticators,
                                     passcode: { (_: VaultError) async throws(VaultError) -> SecretBytes in SecretBytes(utf8: "wrong") },
                                     failure: { $0 })
        }
        #expect(wrong?.status == .authFailed)
    }
}

/// `Vault.path(_:environment:)`: the one rule that names the user's vault.
@Suite("G: which vault file a caller means")
struct VaultPathTests {
    @Test("G: a given path wins, then SESAME_VAULT (unless empty), then the data directory; a relative one is made absolute")
    func order() {
        let environment = ["HOME": "/home/owner", "SESAME_VAULT": "/srv/v.sqlite"]
        #expect(Vault.path("/tmp/given.sqlite", environment: environment) == "/tmp/given.sqlite")
        #expect(Vault.path(nil, environment: environment) == "/srv/v.sqlite")
        #expect(Vault.path(nil, environment: ["HOME": "/home/owner", "SESAME_VAULT": ""]) == "/home/owner/.local/share/sesame/vault.sqlite")
        #expect(Vault.path("relative.sqlite", environment: environment).hasPrefix("/"))
    }
}
