import Crypto
import GRDB

/// The passcode key slot after creation: re-wrapping it when the passcode
/// changes, and erasing it (SPEC E3's erase-after-10).
extension Vault {
    /// Wraps the master key under `passcode`, adding the passcode slot or
    /// replacing it. Never prompts. Use it when the app passcode changes, so
    /// the vault keeps opening with the current one.
    ///
    /// - Parameters:
    ///   - passcode: The new passcode.
    ///   - cost: The scrypt cost for the slot.
    /// - Throws: ``VaultError`` with `invalidArgument` for an empty passcode, or `ioError`.
    public func setPasscodeSlot(_ passcode: SecretBytes, cost: ScryptCost = .standard) async throws(VaultError) {
        guard !passcode.isEmpty else { throw VaultError(.invalidArgument, "A vault passcode must not be empty") }
        let salt = KeyDerivation.randomBytes(16)
        let wrappingKey = try await SlotRecord.passcodeWrappingKey(passcode, salt: salt, cost: cost, binding: authenticators.passcodeGuard)
        let slot = try SlotRecord.seal(vaultKeys.masterKey, kind: "passcode", salt: salt, cost: cost,
                                       wrappingKey: wrappingKey, vaultID: vaultKeys.vaultID)
        do {
            try database.migrate()
            try await database.write { db in
                try db.execute(sql: "DELETE FROM slot WHERE kind = 'passcode'")
                try slot.insert(db)
                // A new passcode starts with a clean attempt record: the owner proved themselves by unlocking.
                try PasscodeSlotLedger.reset(db)
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
    }

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
    public static func erasePasscodeSlot(at path: String) async throws(VaultError) -> Bool {
        let database = try openExisting(path)
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
