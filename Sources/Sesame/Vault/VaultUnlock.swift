/// What opens a vault: the secret behind one of its ``KeySlot``s.
public enum VaultUnlock: Sendable {
    /// The device key. Only read: a missing key is never created.
    ///
    /// - Parameter keyStore: Where the key is kept; `nil` for the vault's
    ///   own (``Vault/defaultDeviceKeyStore(forVaultAt:sealer:)``).
    case device(keyStore: (any DeviceKeyStore)? = nil)
    /// The passcode.
    case passcode(SecretBytes)
    /// The recovery key printed at creation.
    case recoveryKey(RecoveryKey)
}
