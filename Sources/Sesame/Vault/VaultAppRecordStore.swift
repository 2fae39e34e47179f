/// Keeps each app's records in the vault's authenticated settings. An app
/// passcode's attempt history then survives restarts and an edit of it is
/// detected instead of resetting the delays (SPEC E3); flipping feature
/// protection needs the vault's master key as well as the device key, so
/// an intruder cannot switch it off (SPEC B4).
public struct VaultAppRecordStore: AppRecordStore {
    private let vault: Vault
    /// Which records this store keeps.
    public let kind: AppRecordKind

    /// Creates a store of `kind` records in `vault`.
    ///
    /// - Parameters:
    ///   - vault: An open vault.
    ///   - kind: The records kept, each under its own setting names.
    public init(_ vault: Vault, kind: AppRecordKind) {
        self.vault = vault
        self.kind = kind
    }

    public func load(appIdentifier: String) async throws -> [UInt8]? {
        try await vault.settings.value(named: kind.settingName(appIdentifier))
    }

    public func save(_ record: [UInt8], appIdentifier: String) async throws {
        try await vault.settings.set(record, named: kind.settingName(appIdentifier))
    }

    public func update(appIdentifier: String, _ change: @escaping @Sendable (inout [UInt8]?) -> Void) async throws {
        try await vault.settings.update(named: kind.settingName(appIdentifier), change)
    }

    public func remove(appIdentifier: String) async throws {
        try await vault.settings.set(nil, named: kind.settingName(appIdentifier))
    }
}
