#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// The rows beneath every part of the vault (items, keys, collections,
/// settings): reading them checked, sealing values and item keys into them
/// under access control, one transaction at a time. Not API: the parts the
/// user holds (``VaultItems``, ``VaultKeys``, ``VaultCollections``) are
/// built on it, so the vault itself stays the file, its slots and its keys.
struct VaultRows: Sendable {
    let vault: Vault
}

extension Vault {
    /// The rows beneath the parts.
    var rows: VaultRows { VaultRows(vault: self) }
}

extension VaultRows {
    /// Every row of `table` (of one service, or all), sorted, each checked
    /// and described by `describe`; rows that fail are all named in one
    /// `tampered` error. A `key` table that does not exist yet has no rows.
    /// Names are sealed (SPEC D9), so every row is opened and the service
    /// filtered here: a full scan, as listing always was.
    func verifiedRows<Described>(
        table: String, service: String?, _ describe: @escaping @Sendable (ItemRow) -> Described?
    ) async throws(VaultError) -> [Described] {
        let subkeys = vault.subkeys
        let results = try await readDatabase { db in try ItemRow.fetchAll(db, table: table, subkeys: subkeys) }
        var rows: [ItemRow] = []
        var tampered: [String] = []
        for result in results {
            switch result {
            case .success(let row): rows.append(row)
            case .failure(let error): tampered.append(error.message)
            }
        }
        rows = rows.filter { service == nil || $0.service == service }.sorted { ($0.service, $0.account) < ($1.service, $1.account) }
        var described: [Described] = []
        for row in rows {
            guard subkeys.verify(row), let value = describe(row) else {
                tampered.append(row.name)
                continue
            }
            described.append(value)
        }
        guard tampered.isEmpty else {
            throw VaultError(.tampered, "These failed their integrity check (edited or swapped rows): \(tampered.joined(separator: ", "))")
        }
        return described
    }

    /// The row of `service`/`account` in `table` (`item`, or `key` for
    /// ``KeyAlgorithm`` keys), after checking its MAC.
    func verifiedRow(table: String = "item", service: String, account: String) async throws(VaultError) -> ItemRow {
        let subkeys = vault.subkeys
        let row = try await readDatabase { db in
            try ItemRow.fetch(db, table: table, service: service, account: account, subkeys: subkeys)
        }
        guard let row, (row.key == nil) == (table == "item") else {
            throw VaultError(.itemNotFound, "No \(table) \"\(account)\" of \"\(service)\"")
        }
        guard subkeys.verify(row) else {
            throw VaultError(.tampered, "\(row.name) failed its integrity check: its row was edited, swapped or damaged. Sesame does not repair it")
        }
        return row
    }

    /// Encrypts `value` into `row` under the item key, bound to the row's
    /// identity, then MACs the row; the plaintext copy is wiped.
    func sealValue(_ value: SecretBytes, into row: inout ItemRow, key itemKey: SymmetricKey) throws(VaultError) {
        try Vault.checkValueSize(value, of: row.name)
        var plaintext = value.withUnsafeBytes { Array($0) }
        defer { wipe(&plaintext) }
        row.ciphertext = try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(plaintext, key: itemKey, associatedData: row.associatedData) }
        row.lookup = vault.subkeys.lookup(table: row.table, service: row.service, account: row.account)
        row.mac = vault.subkeys.mac(row)
    }

    /// Writes in one transaction, after bringing the file to the current
    /// format (rows are only ever written sealed).
    func write(_ body: @escaping @Sendable (Database) throws -> Void) async throws(VaultError) {
        try vault.upgradeIfNeeded()
        do {
            try await vault.database.write(body)
        } catch {
            throw VaultError(databaseError: error, path: vault.path)
        }
    }

    func readDatabase<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(VaultError) -> Value {
        do {
            return try await vault.database.read(body)
        } catch {
            throw VaultError(databaseError: error, path: vault.path)
        }
    }

    func open(_ sealed: [UInt8], key: SymmetricKey, associatedData: [UInt8], what: String) throws(VaultError) -> [UInt8] {
        guard let plaintext = Envelope.open(sealed, key: key, associatedData: associatedData) else {
            throw VaultError(.tampered, "\(what) does not decrypt: it was edited or moved from another item")
        }
        return plaintext
    }

    func derivePasswordKey(_ password: SecretBytes, salt: [UInt8], cost: ScryptCost) throws(VaultError) -> SymmetricKey {
        do {
            return try KeyDerivation.passwordKey(password, salt: salt, cost: cost)
        } catch {
            throw VaultError(.ioError, "scrypt failed: \(error)")
        }
    }
}

extension ItemRow {
    var attributes: VaultItem? {
        guard let accessibility = ItemAccessibility(rawValue: accessibility),
              let accessControl = AccessControl(canonicalEncoding: accessControl) else { return nil }
        return VaultItem(
            service: service, account: account, label: label, accessibility: accessibility, accessControl: accessControl,
            created: Date(timeIntervalSince1970: created), modified: Date(timeIntervalSince1970: modified))
    }
}
