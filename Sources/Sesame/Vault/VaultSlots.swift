/// A vault's key slots: the ways its master key is unwrapped (the device
/// key, the passcode, the recovery key; SPEC E1–E4), seen and changed while
/// it is open. Reached as ``Vault/slots``; a value that only names its
/// vault, so it costs nothing to make and is safe to pass between tasks.
///
/// ```swift
/// if try await vault.slots.kinds().contains(.passcode) {
///     try await vault.slots.setPasscode(newPasscode)
/// }
/// ```
public struct VaultSlots: Sendable {
    /// The vault the slots are of.
    public let vault: Vault
}

extension Vault {
    /// The vault's key slots: which there are, the passcode's cost, a new passcode.
    public var slots: VaultSlots { VaultSlots(vault: self) }
}
