/// A way to unlock a vault, chosen when it is created (as LUKS key slots).
///
/// Each slot holds the vault's master key wrapped under a different key. A
/// vault needs at least one slot; one created without ``device(keyStore:)``
/// is protected at rest by its passcode alone. Its ``kind`` is the one list
/// of slot kinds (``KeySlotKind``); ``VaultUnlock`` opens the slot of the
/// same kind.
public struct KeySlot: Sendable {
    /// Which slot this is; its raw value is what the vault file stores.
    public let kind: KeySlotKind
    /// Where a `device` slot's key is kept; `nil` for the vault's own.
    let keyStore: (any DeviceKeyStore)?
    /// A `passcode` slot's passcode; `nil` for the other kinds.
    let passcode: SecretBytes?
    /// A `passcode` slot's scrypt cost.
    let cost: ScryptCost

    private init(_ kind: KeySlotKind, keyStore: (any DeviceKeyStore)? = nil, passcode: SecretBytes? = nil, cost: ScryptCost = .standard) {
        self.kind = kind
        self.keyStore = keyStore
        self.passcode = passcode
        self.cost = cost
    }

    /// The master key wrapped by a random device key kept outside the vault
    /// (by default in a file of mode 0600, in a 0700 directory of its own).
    /// Unlocks without asking. The key is created if the store has none.
    ///
    /// - Parameter keyStore: Where the key is kept; `nil` for the vault's
    ///   own (``Vault/defaultDeviceKeyStore(forVaultAt:sealer:)``), which feature
    ///   protection uses too.
    /// - Returns: A ``KeySlotKind/device`` slot.
    public static func device(keyStore: (any DeviceKeyStore)? = nil) -> KeySlot {
        KeySlot(.device, keyStore: keyStore)
    }

    /// The master key wrapped by a key derived with scrypt from a passcode.
    ///
    /// - Parameters:
    ///   - passcode: The passcode.
    ///   - cost: The scrypt cost; ``ScryptCost/standard`` in production.
    /// - Returns: A ``KeySlotKind/passcode`` slot.
    public static func passcode(_ passcode: SecretBytes, cost: ScryptCost = .standard) -> KeySlot {
        KeySlot(.passcode, passcode: passcode, cost: cost)
    }

    /// The master key wrapped by a random recovery key, returned once by
    /// ``Vault/create(at:slots:authenticators:)`` for the owner to print.
    public static let recovery = KeySlot(.recovery)
}
