/// Keeps each app's passcode record (hash, failures, delay) in the vault's
/// authenticated settings: the attempt history then survives restarts and an
/// edit of it is detected instead of resetting the delays (SPEC E3).
public struct VaultAppPasscodeStore: AppPasscodeStore {
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

    public func update(appIdentifier: String, _ change: @escaping @Sendable (inout [UInt8]?) -> Void) async throws {
        try await vault.updateSetting(named: Self.settingName(appIdentifier), change)
    }

    public func remove(appIdentifier: String) async throws {
        try await vault.setSetting(nil, named: Self.settingName(appIdentifier))
    }

    static func settingName(_ appIdentifier: String) -> String {
        "app-passcode/" + appIdentifier
    }
}
