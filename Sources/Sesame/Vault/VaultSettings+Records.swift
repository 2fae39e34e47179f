#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// Small named records sealed under a key derived from the master key: for
/// state whose integrity matters (attempt counters, feature-protection
/// flags). Editing, swapping or truncating a record is reported as
/// `tampered`, never read as a default.
extension VaultSettings {
    /// Reads a setting. Never prompts.
    ///
    /// - Parameter name: The record's name, e.g. `"com.example.features"`.
    /// - Returns: Its bytes, or `nil` when never set.
    /// - Throws: ``VaultError`` with `tampered`, `damaged`, `ioError`.
    public func value(named name: String) async throws(VaultError) -> [UInt8]? {
        let sealed = try await vault.rows.readDatabase { db in
            try Data.fetchOne(db, sql: "SELECT sealed FROM setting WHERE name = ?", arguments: [name])
        }
        guard let sealed else { return nil }
        return try open(Array(sealed), name: name)
    }

    /// Writes or removes a setting. Never prompts.
    ///
    /// - Parameters:
    ///   - value: The bytes, or `nil` to remove the record.
    ///   - name: The record's name.
    /// - Throws: ``VaultError`` with `ioError`.
    public func set(_ value: [UInt8]?, named name: String) async throws(VaultError) {
        _ = try await vault.settings.update(named: name) { $0 = value }
    }

    /// Changes a setting atomically across threads and processes: no other
    /// writer runs between reading and writing it. Never prompts.
    ///
    /// - Parameters:
    ///   - name: The record's name.
    ///   - change: Edits the bytes in place; `nil` means absent.
    /// - Returns: The value after the change.
    /// - Throws: ``VaultError`` with `tampered` (the stored record is not
    ///   authentic; it is left as it is), `ioError`.
    @discardableResult
    public func update(
        named name: String, _ change: @escaping @Sendable (inout [UInt8]?) -> Void
    ) async throws(VaultError) -> [UInt8]? {
        let key = vault.subkeys.settingsKey
        let associatedData = Self.associatedData(name)
        do {
            return try await vault.database.write { db -> [UInt8]? in
                var value: [UInt8]?
                if let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM setting WHERE name = ?", arguments: [name]) {
                    guard let plaintext = Envelope.open(sealed, key: key, associatedData: associatedData)
                    else { throw VaultError(.tampered, "The setting \"\(name)\" failed its integrity check; it was edited or damaged and is left as it is") }
                    value = Array(plaintext)
                }
                change(&value)
                if let value {
                    let sealed = Data(try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(value, key: key, associatedData: associatedData) })
                    try db.execute(sql: "INSERT OR REPLACE INTO setting (name, sealed) VALUES (?, ?)", arguments: [name, sealed])
                } else {
                    try db.execute(sql: "DELETE FROM setting WHERE name = ?", arguments: [name])
                }
                return value
            }
        } catch {
            throw VaultError(databaseError: error, path: vault.path)
        }
    }

    private func open(_ sealed: [UInt8], name: String) throws(VaultError) -> [UInt8] {
        guard let plaintext = Envelope.open(sealed, key: vault.subkeys.settingsKey, associatedData: Self.associatedData(name)) else {
            throw VaultError(.tampered, "The setting \"\(name)\" failed its integrity check; it was edited or damaged and is left as it is")
        }
        return plaintext
    }

    private static func associatedData(_ name: String) -> [UInt8] {
        Envelope.associatedData(Labels.setting) { writer in writer.field(name) }
    }
}
