/// Where a vault's device key lives: sealed to hardware (a TPM, at
/// `Vault.sealedDeviceKeyPath(forVaultAt:)`) or in a 0600 file (at
/// `Vault.defaultDeviceKeyPath(forVaultAt:)`). Never persisted: the file
/// that exists says which.
public enum DeviceKeyKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Sealed to this machine's TPM.
    case tpm
    /// A 0600 file beside the vault.
    case file
}
