import Foundation
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

/// A vault passcode slot bound to the TPM (SPEC G): the slot's key needs
/// the TPM's secret, released only for the right passcode under the TPM's
/// dictionary-attack protection, behind Sesame's own attempt gate (SPEC E3).
@Suite("Vault passcode bound to the TPM (swtpm)")
struct TPMPasscodeGuardVaultTests {
    private let passcode = SecretBytes(utf8: "123456")
    private let cost = ScryptCost(log2N: 10)!

    private func vaultPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-tpm-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory.path + "/vault.sqlite"
    }

    private func authenticators(_ path: String, tcti: String) -> Authenticators {
        var authenticators = Authenticators(appName: "test")
        let directory = (Vault.defaultDeviceKeyPath(forVaultAt: path) as NSString).deletingLastPathComponent
        authenticators.passcodeGuard = TPMPasscodeGuard(directory: directory, tcti: tcti)
        return authenticators
    }

    @Test("G: The right passcode opens the vault on its TPM; scrypt alone (a copied vault, offline) does not, nor another TPM")
    func boundSlot() async throws {
        let path = try vaultPath()
        try await SoftwareTPM.with { tpm in
            let guarded = authenticators(path, tcti: tpm.tcti)
            _ = try await Vault.create(at: path, slots: [.passcode(passcode, cost: cost), .recovery], authenticators: guarded)
            _ = try await Vault.open(at: path, unlock: .passcode(passcode), authenticators: guarded)
            // The attacker with the files and the right passcode but no TPM: scrypt's key alone is not the slot's key.
            await #expect(throws: VaultError.authFailed) {
                try await Vault.open(at: path, unlock: .passcode(passcode), authenticators: Authenticators(appName: "test"))
            }
        }
        try await SoftwareTPM.with { other in
            do throws(VaultError) {
                _ = try await Vault.open(at: path, unlock: .passcode(passcode), authenticators: authenticators(path, tcti: other.tcti))
                Issue.record("another TPM opened the passcode slot")
            } catch {
                #expect(error.status == .locked)
                #expect(error.message.contains("recovery key"))
            }
        }
    }

    @Test("E5, G: Past the TPM's limit even the right passcode is refused with the lockout's time, after the vault file was rolled back")
    func lockoutSurvivesRollback() async throws {
        let path = try vaultPath()
        try await SoftwareTPM.with { tpm in
            try await tpm.run("tpm2_dictionarylockout", ["--setup-parameters", "--max-tries=3", "--recovery-time=600", "--lockout-recovery-time=600"])
            let guarded = authenticators(path, tcti: tpm.tcti)
            _ = try await Vault.create(at: path, slots: [.passcode(passcode, cost: cost), .recovery], authenticators: guarded)
            let backup = path + ".backup"
            try FileManager.default.copyItem(atPath: path, toPath: backup)

            for guess in ["000000", "111111", "222222"] {
                do throws(VaultError) {
                    _ = try await Vault.open(at: path, unlock: .passcode(SecretBytes(utf8: guess)), authenticators: guarded)
                    Issue.record("a wrong passcode opened the vault")
                } catch {
                    #expect(error.status == .authFailed)
                    #expect(error.authenticationError?.retryAfter == nil, "below SPEC E3's threshold: no delay from Sesame")
                }
            }
            // Roll Sesame's attempt record back to before the guesses.
            for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            #expect(try await VaultSlots.passcodeAttempts(at: path)?.consecutiveFailures == 0)

            do throws(VaultError) {
                _ = try await Vault.open(at: path, unlock: .passcode(passcode), authenticators: guarded)
                Issue.record("the TPM let a passcode through during its lockout")
            } catch {
                #expect(error.status == .authFailed)
                #expect(error.message.contains("lockout"))
                let retryAfter = try #require(error.authenticationError?.retryAfter)
                #expect(retryAfter > Date())
            }
            // Sesame counted that attempt before asking the TPM.
            #expect(try await VaultSlots.passcodeAttempts(at: path)?.consecutiveFailures == 1)
        }
    }
}
