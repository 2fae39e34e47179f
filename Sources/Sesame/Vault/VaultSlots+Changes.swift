import Crypto
import GRDB

/// Which key slots an open vault has, re-wrapping the passcode slot when
/// the passcode changes, and removing it while another everyday way in
/// remains (`sesame passcode remove`).
extension VaultSlots {
    /// The kinds of key slot the vault has now. Never prompts.
    ///
    /// - Returns: The kinds present; unknown kinds written by a newer Sesame are left out.
    /// - Throws: ``VaultError`` with `damaged` or `ioError`.
    public func kinds() async throws(VaultError) -> Set<KeySlotKind> {
        let kinds = try await vault.rows.readDatabase { db in try String.fetchAll(db, sql: "SELECT kind FROM slot") }
        return Set(kinds.compactMap(KeySlotKind.init(rawValue:)))
    }

    /// The scrypt cost of the passcode slot, so that what else hashes the
    /// same passcode (its attempt record) can match it. Never prompts.
    ///
    /// - Returns: The cost, or `nil` when the vault has no passcode slot.
    /// - Throws: ``VaultError`` with `damaged` or `ioError`.
    public func passcodeCost() async throws(VaultError) -> ScryptCost? {
        try await vault.rows.readDatabase { db -> ScryptCost? in
            guard let row = try Row.fetchOne(db, sql: "SELECT kind, salt, log2n, r, p, sealed FROM slot WHERE kind = 'passcode'") else {
                return nil
            }
            guard let cost = try SlotRecord(row).cost else {
                throw VaultError(.damaged, "The passcode slot of \(self.vault.path) has no valid scrypt cost")
            }
            return cost
        }
    }

    /// Removes the passcode slot, but only while a device slot remains: the
    /// vault must keep opening without the recovery key, and a passcode-only
    /// vault would otherwise be left with no everyday way in. The check and
    /// the removal are one transaction, so no other process can slip in between.
    ///
    /// - Throws: ``VaultError`` with `invalidArgument` when there is no device
    ///   slot (nothing is removed) or no passcode slot, or `ioError`.
    public func removePasscode() async throws(VaultError) {
        let path = vault.path
        do {
            try await vault.database.write { db in
                let kinds = Set(try String.fetchAll(db, sql: "SELECT kind FROM slot"))
                guard kinds.contains(KeySlotKind.passcode.rawValue) else {
                    throw VaultError(.invalidArgument, "\(path) has no passcode slot")
                }
                guard kinds.contains(KeySlotKind.device.rawValue) else {
                    throw VaultError(.invalidArgument, "\(path) has no device slot: removing its passcode would leave only the recovery key to open it")
                }
                try db.execute(sql: "DELETE FROM slot WHERE kind = 'passcode'")
                if try db.tableExists("attempt") { try db.execute(sql: "DELETE FROM attempt WHERE subject = 'passcode'") }
            }
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
    }

    /// Wraps the master key under `passcode`, adding the passcode slot or
    /// replacing it. Never prompts. Use it when the app passcode changes, so
    /// the vault keeps opening with the current one.
    ///
    /// - Parameters:
    ///   - passcode: The new passcode.
    ///   - cost: The scrypt cost for the slot.
    /// - Throws: ``VaultError`` with `invalidArgument` for an empty passcode, or `ioError`.
    public func setPasscode(_ passcode: SecretBytes, cost: ScryptCost = .standard) async throws(VaultError) {
        guard !passcode.isEmpty else { throw VaultError(.invalidArgument, "A vault passcode must not be empty") }
        let salt = KeyDerivation.randomBytes(16)
        let wrappingKey = try await SlotRecord.passcodeWrappingKey(passcode, salt: salt, cost: cost, binding: vault.authenticators.passcodeGuard)
        let slot = try SlotRecord.seal(vault.subkeys.masterKey, kind: "passcode", salt: salt, cost: cost,
                                       wrappingKey: wrappingKey, vaultID: vault.subkeys.vaultID)
        do {
            try vault.database.migrate()
            try await vault.database.write { db in
                try db.execute(sql: "DELETE FROM slot WHERE kind = 'passcode'")
                try slot.insert(db)
                // A new passcode starts with a clean attempt record: the owner proved themselves by unlocking.
                try PasscodeSlotLedger.reset(db)
            }
        } catch {
            throw VaultError(databaseError: error, path: vault.path)
        }
    }
}
