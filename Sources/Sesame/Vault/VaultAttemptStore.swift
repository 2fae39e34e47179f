#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ``AttemptStore`` in the vault: failure counts, lockout and passcode
/// delays survive restarts, and editing them is detected because the record
/// is sealed under a key derived from the vault's master key.
///
/// A record that fails its integrity check makes ``read()`` and
/// ``update(_:)`` throw, so Sesame fails closed instead of starting from a
/// clean history.
///
/// ```swift
/// var authenticators = vault.authenticators
/// authenticators.attempts = VaultAttemptStore(vault)
/// vault.authenticators = authenticators
/// ```
public final class VaultAttemptStore: AttemptStore {
    /// The setting the record is kept in.
    public static let settingName = "sesame.attempts"

    private let vault: Vault

    /// Creates a store in `vault`.
    ///
    /// - Parameter vault: An unlocked vault.
    public init(_ vault: Vault) {
        self.vault = vault
    }

    /// Reads the record; a vault that never stored one reads as empty.
    ///
    /// - Returns: The record.
    /// - Throws: ``VaultError`` with `tampered`, `damaged` or `ioError`.
    public func read() async throws -> AttemptRecord {
        guard let bytes = try await vault.settings.value(named: Self.settingName) else { return AttemptRecord() }
        return try Self.decode(bytes)
    }

    /// Changes the record atomically, across processes.
    ///
    /// - Parameter change: Edits the record.
    /// - Returns: The record after the change.
    /// - Throws: ``VaultError`` with `tampered`, `damaged` or `ioError`.
    @discardableResult
    public func update(_ change: @Sendable (inout AttemptRecord) -> Void) async throws -> AttemptRecord {
        try await withoutActuallyEscaping(change) { change in
            let box = UncheckedChange(change: change)
            let bytes = try await vault.settings.update(named: Self.settingName) { bytes in
                var record = (try? bytes.map(Self.decode)) ?? nil
                // An undecodable record fails closed below instead of being reset here.
                guard bytes == nil || record != nil else { return }
                var value = record ?? AttemptRecord()
                box.change(&value)
                record = value
                bytes = try? Self.encode(value)
            }
            guard let bytes else { return AttemptRecord() }
            return try Self.decode(bytes)
        }
    }

    private static func encode(_ record: AttemptRecord) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(record))
    }

    private static func decode(_ bytes: [UInt8]) throws -> AttemptRecord {
        do {
            return try JSONDecoder().decode(AttemptRecord.self, from: Data(bytes))
        } catch {
            throw VaultError(.damaged, "The attempt record in the vault is authentic but unreadable (\(error)); failing closed")
        }
    }
}

/// `update`'s closure is not escaping, but the vault's write needs an
/// escaping one; the write completes before `update` returns.
private struct UncheckedChange: @unchecked Sendable {
    let change: @Sendable (inout AttemptRecord) -> Void
}
