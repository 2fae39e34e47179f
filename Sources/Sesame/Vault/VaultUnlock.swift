/// What opens a vault: the secret behind one of its ``KeySlot``s.
public enum VaultUnlock: Sendable {
    /// The device key file.
    ///
    /// - Parameter keyFile: The key file; `nil` for the default next to the vault.
    case device(keyFile: String? = nil)
    /// The passcode.
    case passcode(SecretBytes)
    /// The recovery key printed at creation.
    case recoveryKey(RecoveryKey)
}
