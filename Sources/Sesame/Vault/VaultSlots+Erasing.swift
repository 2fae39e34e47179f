import Crypto
import GRDB

/// Erasing the passcode key slot of a vault that is not open (SPEC E3's
/// erase-after-10).
extension VaultSlots {
    /// Erases the passcode slot of the vault at `path` without unlocking it:
    /// the data reachable through the passcode is gone. When the passcode was
    /// the only slot, nothing can decrypt the items any more, and their rows
    /// are deleted as well. Never prompts.
    ///
    /// This is what erase-after-10 plugs in (SPEC E3): it must work while the
    /// vault is locked, since that is when wrong passcodes are typed.
    ///
    /// - Parameter path: The vault file.
    /// - Returns: `true` when the vault's data is gone (the passcode was its only way in).
    /// - Throws: ``VaultError`` with `insecurePermissions`, `damaged` or `ioError`.
    @discardableResult
    public static func erasePasscode(at path: String) async throws(VaultError) -> Bool {
        let database = try Vault.openExisting(path)
        do {
            return try await database.write { db -> Bool in
                guard try db.tableExists("slot"), try db.tableExists("item") else {
                    throw VaultError(.damaged, "\(path) is an SQLite file but not a Sesame vault")
                }
                try db.execute(sql: "DELETE FROM slot WHERE kind = 'passcode'")
                if try db.tableExists("attempt") { try db.execute(sql: "DELETE FROM attempt WHERE subject = 'passcode'") }
                let remaining = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM slot") ?? 0
                guard remaining == 0 else { return false }
                try db.execute(sql: "DELETE FROM item")
                try db.execute(sql: "DELETE FROM setting")
                return true
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
    }
}
