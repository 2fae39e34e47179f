#if os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

extension LinuxMachine {
    /// Whether a new vault's passcode slot is bound to the TPM, which then
    /// checks the passcode and limits guesses itself (SPEC E3): whenever the
    /// device key is sealed to it, and for a passcode-only vault whenever a
    /// TPM answers, as that is where offline guessing matters most. A key
    /// file alone leaves the passcode to scrypt.
    ///
    /// - Parameters:
    ///   - deviceKey: Where the new vault's device key lives; `nil` for a
    ///     passcode-only vault.
    ///   - tpmAnswers: Whether a TPM answers at ``tcti``.
    /// - Returns: Whether the passcode slot is bound.
    public static func bindsPasscode(ofNewVaultWith deviceKey: DeviceKeyKind?, tpmAnswers: Bool) -> Bool {
        deviceKey.map { $0 == .tpm } ?? tpmAnswers
    }

    /// ``bindsPasscode(ofNewVaultWith:tpmAnswers:)`` on this machine: the
    /// TPM is asked only for a passcode-only vault.
    ///
    /// - Parameter deviceKey: The new vault's device key; `nil` for none.
    /// - Returns: Whether the passcode slot is bound.
    public func bindsPasscode(ofNewVaultWith deviceKey: DeviceKeyKind?) async -> Bool {
        let tpmAnswers = deviceKey == nil ? await tpmUnavailability() == nil : false
        return Self.bindsPasscode(ofNewVaultWith: deviceKey, tpmAnswers: tpmAnswers)
    }

    /// Creates a vault with a device key of `deviceKey` (none when `nil`), a
    /// passcode slot and a recovery key, as `sesame init` does. A key file
    /// already beside it (shared with another vault or feature protection)
    /// is moved into the TPM rather than replaced, so what it protects stays
    /// valid. The vault keeps its passcode's attempt record from its first
    /// moment.
    ///
    /// - Parameters:
    ///   - path: The vault file; ``defaultVaultPath()`` when `nil`.
    ///   - deviceKey: Where the device key lives; `nil` for a passcode-only vault.
    ///   - passcode: The vault passcode.
    ///   - cost: The passcode slot's scrypt cost.
    ///   - bindsPasscode: Whether the passcode slot is bound to the TPM;
    ///     ``bindsPasscode(ofNewVaultWith:)`` when `nil`.
    /// - Returns: The open vault and its recovery key, shown once.
    /// - Throws: `VaultError`: `invalidArgument` when the vault exists or
    ///   a key file is wanted where the key is sealed; what
    ///   ``moveDeviceKey(ofVaultAt:to:)`` and `Vault.create` throw.
    public func createVault(
        at path: String? = nil, deviceKey: DeviceKeyKind?, passcode: SecretBytes, cost: ScryptCost = .standard,
        bindsPasscode: Bool? = nil
    ) async throws(VaultError) -> (vault: Vault, recoveryKey: RecoveryKey?) {
        let path = path.map { Self.vaultPath($0, environment: environment) } ?? defaultVaultPath()
        if let deviceKey {
            let current = deviceKeyKind(forVaultAt: path)
            if deviceKey == .tpm && current == .file && FileManager.default.fileExists(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path)) {
                try await moveDeviceKey(ofVaultAt: path, to: .tpm)
            }
            if deviceKey == .file && current == .tpm {
                throw VaultError(.invalidArgument, "the device key beside \(path) is sealed to the TPM; a key file would replace it")
            }
        }
        let binds: Bool
        if let bindsPasscode { binds = bindsPasscode } else { binds = await self.bindsPasscode(ofNewVaultWith: deviceKey) }
        var authenticators = self.authenticators
        authenticators.passcodeGuard = passcodeGuard(forVaultAt: path, bindsNewSlots: binds)
        let device: [KeySlot] = deviceKey.map { [.device(keyStore: deviceKeyStore($0, forVaultAt: path))] } ?? []
        return try await Vault.create(at: path, slots: device + [.passcode(passcode, cost: cost), .recovery], authenticators: authenticators)
    }
}
#endif
