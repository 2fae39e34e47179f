/// A way to unlock a vault, chosen when it is created (as LUKS key slots).
///
/// Each slot holds the vault's master key wrapped under a different key. A
/// vault needs at least one slot; one created without ``device(keyStore:)``
/// is protected at rest by its passcode alone.
public enum KeySlot: Sendable {
    /// The master key wrapped by a random device key kept outside the vault
    /// (by default in a file of mode 0600, in a 0700 directory of its own).
    /// Unlocks without asking. The key is created if the store has none.
    ///
    /// - Parameter keyStore: Where the key is kept; `nil` for the vault's
    ///   own (``Vault/defaultDeviceKeyStore(forVaultAt:sealer:)``), which feature
    ///   protection uses too.
    case device(keyStore: (any DeviceKeyStore)? = nil)
    /// The master key wrapped by a key derived with scrypt from a passcode.
    ///
    /// - Parameters:
    ///   - passcode: The passcode.
    ///   - cost: The scrypt cost; ``ScryptCost/standard`` in production.
    case passcode(SecretBytes, cost: ScryptCost = .standard)
    /// The master key wrapped by a random recovery key, returned once by
    /// ``Vault/create(at:slots:authenticators:)`` for the owner to print.
    case recovery

    var kind: String {
        switch self {
        case .device: "device"
        case .passcode: "passcode"
        case .recovery: "recovery"
        }
    }
}
