#if os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

extension LinuxMachine {
    /// The user's vault: `SESAME_VAULT` when set, else
    /// `Vault.defaultPath(environment:)`; made absolute.
    ///
    /// - Returns: The vault file.
    public func defaultVaultPath() -> String {
        let chosen = environment["SESAME_VAULT"].flatMap { $0.isEmpty ? nil : $0 } ?? Vault.defaultPath(environment: environment)
        return absolute(chosen)
    }

    /// The store the vault's device key is in now: sealed to the TPM
    /// (`device/device.tpm`) or the 0600 `device/device.key`. It is
    /// `Vault.defaultDeviceKeyStore(forVaultAt:sealer:)` with this machine's
    /// TPM, the one function that decides, for the CLI and every app.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: The store; never prompts, nothing is read until asked.
    public func deviceKeyStore(forVaultAt vaultPath: String) -> any DeviceKeyStore {
        Vault.defaultDeviceKeyStore(forVaultAt: vaultPath, sealer: authenticators.deviceKeySealer)
    }

    /// The vault passcode's guard: the TPM checks a bound passcode slot and
    /// limits guesses itself. Without a binding file no TPM is asked.
    ///
    /// - Parameters:
    ///   - vaultPath: The vault file.
    ///   - bindsNewSlots: Whether a new passcode slot is bound; by default
    ///     when the passcode was bound before or the device key is sealed.
    /// - Returns: The guard.
    public func passcodeGuard(forVaultAt vaultPath: String, bindsNewSlots: Bool? = nil) -> any PasscodeGuard {
        let directory = PrivateFile.parentDirectory(of: Vault.sealedDeviceKeyPath(forVaultAt: vaultPath))
        let bound = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .contains { $0.hasPrefix("passcode-") && $0.hasSuffix(".tpm") }
        return TPMPasscodeGuard(directory: directory, tcti: tcti,
                                bindsNewSlots: bindsNewSlots ?? (bound || Vault.deviceKeyIsSealed(forVaultAt: vaultPath)))
    }

    /// ``authenticators`` for one vault: with its passcode guard, so a
    /// passcode bound to the TPM opens it.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: The authenticators.
    public func authenticators(forVaultAt vaultPath: String) -> Authenticators {
        var authenticators = self.authenticators
        authenticators.passcodeGuard = passcodeGuard(forVaultAt: vaultPath)
        return authenticators
    }

    /// Opens the vault by one of its slots, with this machine's
    /// authenticators for it. `.device(keyStore: nil)` uses the key the
    /// vault has (``deviceKeyStore(forVaultAt:)``).
    ///
    /// - Parameters:
    ///   - path: The vault file; ``defaultVaultPath()`` when `nil`.
    ///   - unlock: The slot's secret.
    /// - Returns: The open vault.
    /// - Throws: `VaultError`, as `Vault.open(at:unlock:authenticators:)`.
    public func openVault(at path: String? = nil, unlock: VaultUnlock) async throws(VaultError) -> Vault {
        let path = path.map(absolute) ?? defaultVaultPath()
        return try await Vault.open(at: path, unlock: unlock, authenticators: authenticators(forVaultAt: path))
    }

    /// Opens the vault as `sesame` does: by the device key the vault has,
    /// else (a passcode-only vault, a key file gone, a TPM that refuses the
    /// key) by its passcode, asked through the presenter. Wrong passcodes
    /// are counted and delayed by the vault itself (SPEC E3, E5).
    ///
    /// - Parameter path: The vault file; ``defaultVaultPath()`` when `nil`.
    /// - Returns: The open vault.
    /// - Throws: `VaultError`; `interactionNotAllowed` when the passcode is
    ///   needed and there is no presenter, `userCanceled` when it is cancelled.
    public func openVault(at path: String? = nil) async throws(VaultError) -> Vault {
        let path = path.map(absolute) ?? defaultVaultPath()
        do throws(VaultError) {
            return try await openVault(at: path, unlock: .device(keyStore: nil))
        } catch where error.status == .locked {
            // The passcode slot still opens it.
            guard let presenter = authenticators.presenter else {
                throw VaultError(.interactionNotAllowed, "The vault passcode is needed (\(error.message)), but there is no terminal to ask on")
            }
            switch await presenter.requestSecret(SecretRequest(kind: .appPasscode, prompt: "Vault passcode")) {
            case .entered(let passcode): return try await openVault(at: path, unlock: .passcode(passcode))
            case .cancelled: throw VaultError(.userCanceled, "The vault passcode was not entered")
            }
        }
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
#endif
