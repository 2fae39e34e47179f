import Foundation
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

/// A vault whose device slot is sealed to a TPM (SPEC G): its device key
/// is had only on that TPM, and the recovery key outlives the TPM.
@Suite("Vault with a TPM-sealed device key (swtpm)")
struct TPMVaultTests {
    let authenticators = Authenticators(appName: "test")

    private func vaultPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-tpm-vault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory.path + "/vault.sqlite"
    }

    @Test("G: After the TPM is cleared the device slot is locked, with the reason, and the recovery key still opens the vault")
    func recoveryKeyAfterClear() async throws {
        try await SoftwareTPM.with { tpm in
            let path = try vaultPath()
            let store = TPMDeviceKeyStore(path: TPMDeviceKeyStore.defaultPath(forVaultAt: path), tcti: tpm.tcti)
            let (vault, recovery) = try await Vault.create(at: path, slots: [.device(keyStore: store), .recovery], authenticators: authenticators)
            try await vault.items.add(SecretBytes(utf8: "token"), service: "api", account: "me")
            #expect(!FileManager.default.fileExists(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path)), "no key file beside a TPM vault")
            _ = try await Vault.open(at: path, unlock: .device(keyStore: store), authenticators: authenticators)

            try await tpm.run("tpm2_clear", [])
            do throws(VaultError) {
                _ = try await Vault.open(at: path, unlock: .device(keyStore: store), authenticators: authenticators)
                Issue.record("the device slot opened after the TPM was cleared")
            } catch {
                #expect(error.status == .locked)
                #expect(error.message.contains("cleared"))
            }
            let key = try #require(recovery)
            let reopened = try await Vault.open(at: path, unlock: .recovery(key), authenticators: authenticators)
            let value = try await reopened.items.read(service: "api", account: "me", operationPrompt: "test")
            #expect(value.constantTimeEquals(SecretBytes(utf8: "token")))
        }
    }
}
