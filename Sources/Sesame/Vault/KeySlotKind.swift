/// The kinds of key slot a vault can have: the one list of them, which
/// ``KeySlot`` (at creation), ``VaultUnlock`` (at opening) and
/// ``VaultSlots/kinds()`` name. Unlike a ``KeySlot`` it carries no secret;
/// the raw values are what the vault file stores, so they never change.
public enum KeySlotKind: String, Sendable, Hashable, CaseIterable {
    /// The master key wrapped by the device key file.
    case device
    /// The master key wrapped by a key derived from the passcode.
    case passcode
    /// The master key wrapped by the printed recovery key.
    case recovery
}
