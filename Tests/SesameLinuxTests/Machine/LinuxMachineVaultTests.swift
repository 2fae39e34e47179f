#if os(Linux)
import Foundation
import Sesame
import SesameLinux
import Testing

/// `LinuxMachine.openVault(at:passcode:failure:)`: the one order `sesame`
/// and every app open a vault in — the device key, and the passcode only
/// when the device key cannot open it. A key file in a temporary directory;
/// no TPM is asked (there is no sealed key and no passcode binding).
@Suite("LinuxMachine.openVault(at:passcode:failure:)")
struct LinuxMachineVaultTests {
    private struct PasscodeRefused: Error, Equatable {}

    private let passcode = SecretBytes(utf8: "vault passcode")

    /// A machine on a fresh account, with no sensor nor presenter, and a
    /// TPM that is never there.
    private func machine() throws -> (LinuxMachine, String) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-machine-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = ["HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data",
                           "SESAME_TPM_TCTI": "swtpm:host=127.0.0.1,port=1", "SESAME_REUSE_SCOPE": "machine-\(UUID().uuidString)"]
        var machine = try LinuxMachine(appName: "machine-test", presenter: nil, environment: environment)
        machine.authenticators.sensor = nil
        return (machine, home + "/vault.sqlite")
    }

    private func create(_ machine: LinuxMachine, at path: String, deviceKey: Bool) async throws {
        let device: [KeySlot] = deviceKey ? [.device(keyStore: machine.deviceKeyStore(.file, forVaultAt: path))] : []
        _ = try await Vault.create(at: path, slots: device + [.passcode(passcode, cost: .testing)],
                                   authenticators: machine.authenticators(forVaultAt: path))
    }

    @Test("E2: the device key opens the vault and the passcode is never asked for")
    func deviceKeyFirst() async throws {
        let (machine, path) = try machine()
        try await create(machine, at: path, deviceKey: true)
        var asked = 0
        _ = try await machine.openVault(at: path, passcode: { (_: VaultError) async throws(PasscodeRefused) -> SecretBytes in
            asked += 1
            throw PasscodeRefused()
        }, failure: { _ in PasscodeRefused() })
        #expect(asked == 0)
    }

    @Test("E2: a passcode-only vault asks for its passcode once, saying why the device key did not open it")
    func passcodeOnly() async throws {
        let (machine, path) = try machine()
        try await create(machine, at: path, deviceKey: false)
        var reasons: [VaultError.Status] = []
        _ = try await machine.openVault(at: path, passcode: { (locked: VaultError) async throws(VaultError) -> SecretBytes in
            reasons.append(locked.status)
            return passcode
        }, failure: { $0 })
        #expect(reasons == [.locked])
    }

    @Test("E2: when the device key file is gone, the passcode opens the vault")
    func keyFileGone() async throws {
        let (machine, path) = try machine()
        try await create(machine, at: path, deviceKey: true)
        try FileManager.default.removeItem(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path))
        var asked = 0
        _ = try await machine.openVault(at: path, passcode: { (_: VaultError) async throws(VaultError) -> SecretBytes in
            asked += 1
            return passcode
        }, failure: { $0 })
        #expect(asked == 1)
    }

    @Test("E3: the supplier's own error is thrown unchanged, and a wrong passcode is the vault's authFailed")
    func errors() async throws {
        let (machine, path) = try machine()
        try await create(machine, at: path, deviceKey: false)
        await #expect(throws: PasscodeRefused()) {
            _ = try await machine.openVault(at: path, passcode: { (_: VaultError) async throws(PasscodeRefused) -> SecretBytes in
                throw PasscodeRefused()
            }, failure: { _ in PasscodeRefused() })
        }
        await #expect(throws: VaultError.authFailed) {
            _ = try await machine.openVault(at: path, passcode: { (_: VaultError) async throws(VaultError) -> SecretBytes in
                SecretBytes(utf8: "wrong")
            }, failure: { $0 })
        }
    }

    @Test("A named vault is made absolute; with none, SESAME_VAULT, else the data directory's")
    func vaultPath() {
        let here = FileManager.default.currentDirectoryPath
        #expect(LinuxMachine.vaultPath("v.sqlite", environment: [:]) == here + "/v.sqlite")
        #expect(LinuxMachine.vaultPath(nil, environment: ["SESAME_VAULT": "/x/v.sqlite"]) == "/x/v.sqlite")
        #expect(LinuxMachine.vaultPath(nil, environment: ["SESAME_VAULT": "", "XDG_DATA_HOME": "/d"])
            == Vault.defaultPath(environment: ["XDG_DATA_HOME": "/d"]))
    }
}
#endif
