/// A way to unlock a vault, chosen when it is created (as LUKS key slots).
///
/// Each slot holds the vault's master key wrapped under a different key. A
/// vault needs at least one slot; one created without ``device(keyFile:)``
/// is protected at rest by its passcode alone.
public enum KeySlot: Sendable {
    /// The master key wrapped by a random device key kept in a file outside
    /// the vault (mode 0600, in a 0700 directory). Unlocks without asking.
    ///
    /// - Parameter keyFile: The key file; `nil` for the default next to the
    ///   vault (see ``Vault/defaultDeviceKeyPath(forVaultAt:)``).
    case device(keyFile: String? = nil)
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
