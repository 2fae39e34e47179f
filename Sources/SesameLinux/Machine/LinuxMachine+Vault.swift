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
        Self.vaultPath(nil, environment: environment)
    }

    /// The vault file a command names, or the user's vault when it names
    /// none (`SESAME_VAULT` when set, else `Vault.defaultPath(environment:)`);
    /// made absolute, so that messages name it unambiguously. Needs no
    /// machine: a path is chosen before anything is opened.
    ///
    /// - Parameters:
    ///   - path: The vault file given, or `nil`.
    ///   - environment: Where `SESAME_VAULT` and the data directories are read.
    /// - Returns: The vault file.
    public static func vaultPath(_ path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Vault.path(path, environment: environment)
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
        let path = path.map(Self.absolute) ?? defaultVaultPath()
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
        let presenter = authenticators.presenter
        return try await openVault(at: path, passcode: { (locked) async throws(VaultError) -> SecretBytes in
            guard let presenter else {
                throw VaultError(.interactionNotAllowed, "The vault passcode is needed (\(locked.message)), but there is no terminal to ask on")
            }
            switch await presenter.requestSecret(SecretRequest(kind: .appPasscode, prompt: "Vault passcode", secretName: "your vault passcode")) {
            case .entered(let passcode): return passcode
            case .cancelled: throw VaultError(.userCanceled, "The vault passcode was not entered")
            case .notShown(let why): throw VaultError(.interactionNotAllowed, "The vault passcode is needed (\(locked.message)), but nobody could be asked: \(why)")
            }
        }, failure: { $0 })
    }

    /// Opens the vault by the device key it has and, only when that cannot
    /// open it (a passcode-only vault, a key file gone, a TPM that refuses
    /// the key), by the passcode `passcode` supplies: one order for
    /// `sesame` and every app, whoever asks the owner. Wrong passcodes are
    /// counted and delayed by the vault itself (SPEC E3, E5). The order is
    /// the core's (`Vault.open(at:deviceKeyStore:authenticators:passcode:failure:)`);
    /// this adds the machine's authenticators for the vault.
    ///
    /// - Parameters:
    ///   - path: The vault file; ``defaultVaultPath()`` when `nil`.
    ///   - passcode: Supplies the vault passcode, given why the device key
    ///     did not open the vault; called at most once, and never when the
    ///     device key opens it.
    ///   - failure: Turns the vault's error into the caller's.
    /// - Returns: The open vault.
    /// - Throws: What `passcode` throws, unchanged, or the vault's
    ///   `VaultError` through `failure`.
    public func openVault<Failure: Error>(
        at path: String? = nil,
        passcode: (_ locked: VaultError) async throws(Failure) -> SecretBytes,
        failure: (VaultError) -> Failure
    ) async throws(Failure) -> Vault {
        let path = path.map(Self.absolute) ?? defaultVaultPath()
        return try await Vault.open(at: path, authenticators: authenticators(forVaultAt: path), passcode: passcode, failure: failure)
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
#endif
