#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

extension Vault {
    /// Describes a vault without unlocking it: no key, no passcode, no prompt.
    ///
    /// The file and its directory get the same permission checks as
    /// ``open(at:unlock:authenticators:)``, so a status report also says when
    /// a vault is open to others.
    ///
    /// - Parameter path: The vault file.
    /// - Returns: Its format, key slot kinds and item count.
    /// - Throws: ``VaultError`` with `insecurePermissions`, `damaged` (not a
    ///   vault, or from a newer Sesame), or `ioError` (no such file).
    public static func summary(at path: String) async throws(VaultError) -> VaultSummary {
        try PrivateFiles.requirePrivate(PrivateFiles.directory(of: path))
        guard PrivateFiles.exists(path) else { throw VaultError(.ioError, "There is no vault at \(path)") }
        try PrivateFiles.requirePrivate(path)
        for companion in [path + "-wal", path + "-shm"] where PrivateFiles.exists(companion) {
            try PrivateFiles.requirePrivate(companion)
        }
        let database = try openDatabase(path)
        do {
            return try await database.read { db throws -> VaultSummary in
                guard try db.tableExists("meta"), try db.tableExists("slot"), try db.tableExists("item") else {
                    throw VaultError(.damaged, "\(path) is an SQLite file but not a Sesame vault")
                }
                let format = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'").flatMap { Int(String(decoding: $0, as: UTF8.self)) }
                guard let format else { throw VaultError(.damaged, "\(path) has no format version; it is not a Sesame vault") }
                guard format <= Schema.format else {
                    throw VaultError(.damaged, "\(path) has format \(format), written by a newer Sesame; this one reads up to \(Schema.format)")
                }
                let slots = try String.fetchAll(db, sql: "SELECT kind FROM slot ORDER BY kind")
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0
                return VaultSummary(format: format, slots: slots, itemCount: count)
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
    }
}
