/// Which device key a new vault gets from a machine's `createVault`
/// (`LinuxMachine`'s on Linux). The machine, not its caller, knows
/// whether a TPM answers and what already lies beside the vault; the caller
/// says only what the person asked for.
public enum DeviceKeyRequest: Sendable, Hashable {
    /// Sealed to the TPM when one answers, else a key file; the result's
    /// notes say which, and why.
    case automatic
    /// Exactly this kind, or no vault at all.
    case required(DeviceKeyKind)
    /// No device key: the vault opens by its passcode or recovery key only.
    case none
}
