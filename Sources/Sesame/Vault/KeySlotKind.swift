/// The kinds of key slot a vault can have, as reported by
/// ``Vault/keySlotKinds()``. Unlike ``KeySlot`` it carries no secret.
public enum KeySlotKind: String, Sendable, Hashable, CaseIterable {
    /// The master key wrapped by the device key file.
    case device
    /// The master key wrapped by a key derived from the passcode.
    case passcode
    /// The master key wrapped by the printed recovery key.
    case recovery
}
