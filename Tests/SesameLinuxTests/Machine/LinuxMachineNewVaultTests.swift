#if os(Linux)
import Foundation
import Sesame
import SesameLinux
import Testing

/// `LinuxMachine.createVault(at:deviceKey:passcode:cost:)`
/// and its decision of when the passcode is bound to the TPM, where no TPM
/// is needed (the swtpm suites cover sealing and binding themselves).
@Suite("LinuxMachine.createVault")
struct LinuxMachineNewVaultTests {
    private let passcode = SecretBytes(utf8: "vault passcode")

    private func machine() throws -> (LinuxMachine, String) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-new-vault-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = ["HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data",
                           "SESAME_TPM_TCTI": "swtpm:host=127.0.0.1,port=1", "SESAME_REUSE_SCOPE": "new-vault-\(UUID().uuidString)"]
        var machine = try LinuxMachine(appName: "new-vault-test", presenter: nil, environment: environment)
        machine.authenticators.sensor = nil
        return (machine, home + "/vault.sqlite")
    }

    /// A sealed device key file beside the vault, as a TPM vault leaves it.
    private func sealedKeyBeside(_ path: String) throws {
        let sealed = Vault.sealedDeviceKeyPath(forVaultAt: path)
        try FileManager.default.createDirectory(atPath: (sealed as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: sealed, contents: Data("sealed".utf8), attributes: [.posixPermissions: 0o600])
    }

    @Test("E3: the passcode is bound whenever the device key is sealed, and for a passcode-only vault whenever a TPM answers")
    func bindingDecision() {
        #expect(LinuxMachine.bindsPasscode(ofNewVaultWith: .tpm, tpmAnswers: true))
        #expect(!LinuxMachine.bindsPasscode(ofNewVaultWith: .file, tpmAnswers: true))
        #expect(!LinuxMachine.bindsPasscode(ofNewVaultWith: .file, tpmAnswers: false))
        #expect(LinuxMachine.bindsPasscode(ofNewVaultWith: nil, tpmAnswers: true))
        #expect(!LinuxMachine.bindsPasscode(ofNewVaultWith: nil, tpmAnswers: false))
    }

    @Test("E3: with no TPM answering, a passcode-only vault's passcode is left to scrypt")
    func noTPMNoBinding() async throws {
        let (machine, _) = try machine()
        #expect(await machine.bindsPasscode(ofNewVaultWith: nil) == false)
    }

    @Test("A vault with a key file opens by it, and its passcode slot is not bound")
    func fileDeviceKey() async throws {
        let (machine, path) = try machine()
        let created = try await machine.createVault(at: path, deviceKey: .required(.file), passcode: passcode, cost: .testing)
        #expect(created.recoveryKey != nil)
        #expect(machine.deviceKeyKind(forVaultAt: path) == .file)
        _ = try await machine.openVault(at: path, unlock: .device(keyStore: nil))
        _ = try await machine.openVault(at: path, unlock: .passcode(passcode))
        let directory = (Vault.sealedDeviceKeyPath(forVaultAt: path) as NSString).deletingLastPathComponent
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        #expect(!files.contains { $0.hasPrefix("passcode-") })
    }

    @Test("A passcode-only vault has no device slot")
    func passcodeOnly() async throws {
        let (machine, path) = try machine()
        _ = try await machine.createVault(at: path, deviceKey: .none, passcode: passcode, cost: .testing)
        await #expect(throws: VaultError(.locked, "")) {
            _ = try await machine.openVault(at: path, unlock: .device(keyStore: nil))
        }
        _ = try await machine.openVault(at: path, unlock: .passcode(passcode))
    }

    @Test("A key file is not made where the device key is sealed to the TPM")
    func sealedKeyKept() async throws {
        let (machine, path) = try machine()
        try sealedKeyBeside(path)
        await #expect(throws: VaultError(.invalidArgument, "")) {
            _ = try await machine.createVault(at: path, deviceKey: .required(.file), passcode: passcode, cost: .testing)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("SPEC G: asked for nothing in particular with no TPM answering, the vault gets a key file, and the notes say so in the owner's words (no TCTI)")
    func automaticFallsBackToAFile() async throws {
        let (machine, path) = try machine()
        let created = try await machine.createVault(at: path, deviceKey: .automatic, passcode: passcode, cost: .testing)
        #expect(created.deviceKey == .file)
        #expect(!created.passcodeIsBound)
        // In the owner's words: no TCTI, no TPM error code.
        #expect(created.notes.first == "no TPM here, so the device key is kept in a 0600 file (`sesame status` says why there is no TPM)", "\(created.notes)")
        #expect(created.notes.contains("the device key is in the file \(Vault.defaultDeviceKeyPath(forVaultAt: path))"), "\(created.notes)")
        #expect(DeviceKeyKind.current(forVaultAt: path) == .file)
        _ = try await machine.openVault(at: path, unlock: .device(keyStore: nil))
    }

    @Test("G: the TPM required where none answers is notAvailable, naming why, and nothing is created")
    func requiredTPMRefused() async throws {
        let (machine, path) = try machine()
        do {
            _ = try await machine.createVault(at: path, deviceKey: .required(.tpm), passcode: passcode, cost: .testing)
            Issue.record("a vault was created without its TPM")
        } catch {
            #expect(error.status == .notAvailable)
            #expect(error.message.contains("No TPM") && error.message.hasSuffix("nothing was created"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path)))
    }

    @Test("G: with the key already sealed beside it and no TPM answering, the automatic choice refuses rather than make a key file")
    func automaticKeepsASealedKey() async throws {
        let (machine, path) = try machine()
        try sealedKeyBeside(path)
        await #expect(throws: VaultError(.invalidArgument, "")) {
            _ = try await machine.createVault(at: path, deviceKey: .automatic, passcode: passcode, cost: .testing)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path)))
    }
}
#endif
