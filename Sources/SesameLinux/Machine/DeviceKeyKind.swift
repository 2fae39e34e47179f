#if os(Linux)
/// Where a vault's device key lives: sealed to the TPM (`device/device.tpm`)
/// or in a 0600 file (`device/device.key`). See
/// ``LinuxMachine/deviceKeyKind(forVaultAt:)``.
public enum DeviceKeyKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Sealed to this machine's TPM.
    case tpm
    /// A 0600 file beside the vault.
    case file
}
#endif
