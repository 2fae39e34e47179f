/// A vault's settings: small named records sealed under a key of their own
/// (attempt counters, app records, feature protection's flags), whose
/// integrity matters as much as an item's. Reached as ``Vault/settings``; a
/// value that only names its vault, so it costs nothing to make and is safe
/// to pass between tasks.
public struct VaultSettings: Sendable {
    /// The vault the settings are in.
    public let vault: Vault
}

extension Vault {
    /// The vault's sealed settings records.
    public var settings: VaultSettings { VaultSettings(vault: self) }
}
