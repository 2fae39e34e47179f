#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Vault {
    // MARK: Locations

    /// `$XDG_DATA_HOME/sesame/vault.sqlite`, or `~/.local/share/sesame/vault.sqlite`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The default vault path.
    public static func defaultPath(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/sesame/vault.sqlite" }
        return (environment["HOME"] ?? "/") + "/.local/share/sesame/vault.sqlite"
    }

    /// The vault file a caller names, or the user's vault when it names
    /// none (`SESAME_VAULT` when set, else ``defaultPath(environment:)``);
    /// made absolute against the working directory, so that messages name
    /// it unambiguously. One rule for `sesame` and every app.
    ///
    /// - Parameters:
    ///   - path: The vault file given, or `nil`.
    ///   - environment: Where `SESAME_VAULT` and the data directories are read.
    /// - Returns: The vault file.
    public static func path(_ path: String?, environment: [String: String]) -> String {
        let chosen = path ?? environment["SESAME_VAULT"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultPath(environment: environment)
        return chosen.hasPrefix("/") ? chosen : FileManager.default.currentDirectoryPath + "/" + chosen
    }

    /// `device/device.key` in the vault's directory: a directory of its own
    /// (0700) so that copying the vault file alone does not copy the key.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: The default device key file.
    public static func defaultDeviceKeyPath(forVaultAt vaultPath: String) -> String {
        PrivateFiles.directory(of: vaultPath) + "/device/device.key"
    }

    /// `device/device.tpm` in the vault's directory: where a device key
    /// sealed to hardware (``DeviceKeySealer``) is kept instead of
    /// ``defaultDeviceKeyPath(forVaultAt:)``.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: The sealed device key's file.
    public static func sealedDeviceKeyPath(forVaultAt vaultPath: String) -> String {
        PrivateFiles.directory(of: vaultPath) + "/device/device.tpm"
    }

    /// Whether the vault's device key is sealed to hardware now (its
    /// ``sealedDeviceKeyPath(forVaultAt:)`` exists). Never prompts, never writes.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: `true` for a sealed key, `false` for a key file or none.
    public static func deviceKeyIsSealed(forVaultAt vaultPath: String) -> Bool {
        PrivateFiles.exists(sealedDeviceKeyPath(forVaultAt: vaultPath))
    }

    /// The store the vault's device key is in: the sealed key's store when
    /// the key was sealed to hardware (``deviceKeyIsSealed(forVaultAt:)``),
    /// else a ``FileDeviceKeyStore`` at ``defaultDeviceKeyPath(forVaultAt:)``.
    /// ``KeySlot/device(keyStore:)`` and ``VaultUnlock/device(keyStore:)``
    /// use it, with ``Authenticators/deviceKeySealer``, when given no store;
    /// feature protection for the same vault should use it too, so one key
    /// serves both. This is the one place that chooses a vault's device key.
    ///
    /// - Parameters:
    ///   - vaultPath: The vault file.
    ///   - sealer: The hardware that sealed the key, if this process has it.
    ///     Without one, a sealed key's store fails with `locked` (the
    ///     passcode or recovery key still opens the vault); a file key is
    ///     never put in its place.
    /// - Returns: The store. Never prompts; nothing is read until it is asked.
    public static func defaultDeviceKeyStore(forVaultAt vaultPath: String, sealer: (any DeviceKeySealer)? = nil) -> any DeviceKeyStore {
        if deviceKeyIsSealed(forVaultAt: vaultPath) {
            let sealedPath = sealedDeviceKeyPath(forVaultAt: vaultPath)
            return sealer?.sealedStore(at: sealedPath) ?? UnreachableSealedKeyStore(path: sealedPath)
        }
        return FileDeviceKeyStore(path: defaultDeviceKeyPath(forVaultAt: vaultPath))
    }
}

extension FileDeviceKeyStore {
    /// The device key of the default vault: `device/device.key` beside
    /// ``Vault/defaultPath(environment:)``. Here rather than beside the store
    /// because where a vault keeps its key is the vault's to say.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The default path.
    public static func defaultPath(environment: [String: String]) -> String {
        Vault.defaultDeviceKeyPath(forVaultAt: Vault.defaultPath(environment: environment))
    }
}

extension DeviceKeyKind {
    /// The kind of the key beside `vaultPath` now: sealed when its sealed
    /// file exists, else a file (which may not exist yet). Never prompts.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: The kind.
    public static func current(forVaultAt vaultPath: String) -> DeviceKeyKind {
        Vault.deviceKeyIsSealed(forVaultAt: vaultPath) ? .tpm : .file
    }
}
