#if os(Linux)
import Glibc
import Sesame

extension LinuxMachine {
    /// Where the vault's device key lives now: the sealed file, when present,
    /// decides. Never prompts, never writes.
    ///
    /// - Parameter vaultPath: The vault file.
    /// - Returns: The kind.
    public func deviceKeyKind(forVaultAt vaultPath: String) -> DeviceKeyKind {
        DeviceKeyKind.current(forVaultAt: vaultPath)
    }

    /// The store of one kind for the vault, whether or not the key is there
    /// yet (`sesame init --device-key`, migration).
    ///
    /// - Parameters:
    ///   - kind: Where the key is to live.
    ///   - vaultPath: The vault file.
    /// - Returns: The store.
    public func deviceKeyStore(_ kind: DeviceKeyKind, forVaultAt vaultPath: String) -> any DeviceKeyStore {
        switch kind {
        case .tpm: TPMDeviceKeyStore(path: Vault.sealedDeviceKeyPath(forVaultAt: vaultPath), tcti: tcti)
        case .file: FileDeviceKeyStore(path: Vault.defaultDeviceKeyPath(forVaultAt: vaultPath))
        }
    }

    /// "sealed to the TPM at … (…)" or "in the file …", for messages.
    ///
    /// - Parameters:
    ///   - kind: Where the key lives.
    ///   - vaultPath: The vault file.
    /// - Returns: The description.
    public func describeDeviceKey(_ kind: DeviceKeyKind, forVaultAt vaultPath: String) -> String {
        switch kind {
        case .tpm: "sealed to the TPM at \(tcti) (\(Vault.sealedDeviceKeyPath(forVaultAt: vaultPath)))"
        case .file: "in the file \(Vault.defaultDeviceKeyPath(forVaultAt: vaultPath))"
        }
    }

    /// Why no TPM can be used at ``tcti``, or `nil` when one answers. Never
    /// prompts, never writes.
    ///
    /// - Returns: The reason, or `nil`.
    public func tpmUnavailability() async -> String? {
        do throws(TPMError) {
            try await TPMDeviceKeyStore.checkAvailable(tcti: tcti)
            return nil
        } catch {
            return error.description
        }
    }

    /// Moves the vault's device key to `kind`: the same 32 bytes, so the
    /// device slot and feature protection stay valid; the old copy is
    /// removed only after the new one has been read back. Nothing happens
    /// when the key is there already.
    ///
    /// - Parameters:
    ///   - vaultPath: The vault file.
    ///   - kind: Where the key is to live.
    /// - Throws: `VaultError`: `notAvailable` when there is no key to move
    ///   or it cannot be read; `ioError` when it cannot be written, does not
    ///   read back, or the old copy cannot be removed (the key is then in both).
    public func moveDeviceKey(ofVaultAt vaultPath: String, to kind: DeviceKeyKind) async throws(VaultError) {
        let from = deviceKeyKind(forVaultAt: vaultPath)
        guard from != kind else { return }
        let key: SecretBytes
        do {
            guard let existing = try await deviceKeyStore(from, forVaultAt: vaultPath).existingDeviceKey() else {
                throw VaultError(.notAvailable, "there is no device key to move (\(describeDeviceKey(from, forVaultAt: vaultPath)))")
            }
            key = existing
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.notAvailable, "the device key cannot be read: \(error)")
        }
        let newStore = deviceKeyStore(kind, forVaultAt: vaultPath)
        do {
            // Each kind's own store writes the key; no cast of the generic one.
            switch kind {
            case .tpm: try await TPMDeviceKeyStore(path: Vault.sealedDeviceKeyPath(forVaultAt: vaultPath), tcti: tcti).seal(key)
            case .file: try FileDeviceKeyStore(path: Vault.defaultDeviceKeyPath(forVaultAt: vaultPath)).store(key)
            }
            guard let readBack = try await newStore.existingDeviceKey(), readBack.constantTimeEquals(key) else {
                throw VaultError(.ioError, "the moved device key does not read back; nothing was removed")
            }
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(.ioError, "the device key cannot be moved: \(error)")
        }
        let oldPath = from == .tpm ? Vault.sealedDeviceKeyPath(forVaultAt: vaultPath) : Vault.defaultDeviceKeyPath(forVaultAt: vaultPath)
        if unlink(oldPath) != 0 {
            throw VaultError(.ioError, "the key was copied but \(oldPath) could not be removed: \(String(cString: strerror(errno)))")
        }
    }
}
#endif
