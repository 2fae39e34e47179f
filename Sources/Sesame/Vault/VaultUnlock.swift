/// What opens a vault: the secret behind one of its ``KeySlot``s, named as
/// the slot it opens (its ``kind``).
public struct VaultUnlock: Sendable {
    /// The kind of slot this opens.
    public let kind: KeySlotKind
    /// Where the `device` key is kept; `nil` for the vault's own.
    let keyStore: (any DeviceKeyStore)?
    /// The passcode or the recovery key's secret; `nil` for `device`.
    let secret: SecretBytes?

    private init(_ kind: KeySlotKind, keyStore: (any DeviceKeyStore)? = nil, secret: SecretBytes? = nil) {
        self.kind = kind
        self.keyStore = keyStore
        self.secret = secret
    }

    /// The device key. Only read: a missing key is never created.
    ///
    /// - Parameter keyStore: Where the key is kept; `nil` for the vault's
    ///   own (``Vault/defaultDeviceKeyStore(forVaultAt:sealer:)``).
    /// - Returns: What opens the ``KeySlotKind/device`` slot.
    public static func device(keyStore: (any DeviceKeyStore)? = nil) -> VaultUnlock {
        VaultUnlock(.device, keyStore: keyStore)
    }

    /// The passcode.
    ///
    /// - Parameter passcode: The passcode entered.
    /// - Returns: What opens the ``KeySlotKind/passcode`` slot.
    public static func passcode(_ passcode: SecretBytes) -> VaultUnlock {
        VaultUnlock(.passcode, secret: passcode)
    }

    /// The recovery key printed at creation.
    ///
    /// - Parameter key: The key as parsed from its printed form.
    /// - Returns: What opens the ``KeySlotKind/recovery`` slot.
    public static func recovery(_ key: RecoveryKey) -> VaultUnlock {
        VaultUnlock(.recovery, secret: key.secret)
    }
}
