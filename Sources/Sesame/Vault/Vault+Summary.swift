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
        let database = try openExisting(path)
        do {
            return try await database.read { db throws -> VaultSummary in
                let format = try readFormat(db, path: path)
                let slots = try String.fetchAll(db, sql: "SELECT kind FROM slot ORDER BY kind")
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0
                return VaultSummary(format: format, slots: slots, itemCount: count)
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
    }
}
