/// Keeps each app's feature-protection record in the vault's authenticated
/// settings, so flipping it needs the vault's master key as well as the
/// device key: an intruder must not switch protection off (SPEC B4).
public struct VaultFeatureProtectionStore: FeatureProtectionStore {
    private let vault: Vault

    /// Creates a store in `vault`.
    ///
    /// - Parameter vault: An open vault.
    public init(_ vault: Vault) {
        self.vault = vault
    }

    public func load(appIdentifier: String) async throws -> [UInt8]? {
        try await vault.setting(named: Self.settingName(appIdentifier))
    }

    public func save(_ record: [UInt8], appIdentifier: String) async throws {
        try await vault.setSetting(record, named: Self.settingName(appIdentifier))
    }

    static func settingName(_ appIdentifier: String) -> String {
        "feature-protection/" + appIdentifier
    }
}
