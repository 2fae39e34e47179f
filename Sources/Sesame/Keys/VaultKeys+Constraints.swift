#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// Key constraints (SPEC D8): a lifetime and a confirmation stored with the
/// key and enforced here, at every use in every process, so that neither an
/// agent restart nor another program (`sesame key sign`) escapes them.
extension VaultKeys {
    /// Refuses a use of `row` that its constraints forbid, before its access
    /// control is run: past its expiry the key is deleted and is
    /// `itemNotFound`; a clock that reads earlier than when the lifetime was
    /// set (beyond ``KeyConstraintsRecord/clockSkew``) is `notAvailable`; a
    /// confirm-each-use key asks the owner on a prompt of its own.
    func enforceConstraints(of row: ItemRow, prompt: String, context: AuthenticationContext?) async throws(VaultError) {
        guard let record = try KeyConstraintsRecord.open(row, key: vault.subkeys.constraintsKey) else { return }
        let now = vault.authenticators.clock.now()
        if record.hasExpired(at: now, boot: vault.authenticators.clock.bootInstant()) {
            try await delete(row)
            throw VaultError(.itemNotFound, "\(row.name) reached the end of its lifetime and was deleted (SPEC D8)")
        }
        if record.constraints.expires != nil, now.timeIntervalSince1970 < record.since - KeyConstraintsRecord.clockSkew {
            // The clock went back past the moment the lifetime was set: it
            // cannot say how much of the lifetime is left.
            throw VaultError(.notAvailable, "\(row.name) has a lifetime, and this process's clock reads earlier than when it was set; the key is not used until the clock is right")
        }
        guard record.constraints.confirmEachUse else { return }
        // The caller's context, so that cancelling it (a closed agent
        // connection) cancels this prompt too; an authorisation for the key
        // made ahead of time (SPEC A12) does not answer a device-owner prompt.
        let confirmation = context ?? vault.makeContext()
        do throws(AuthenticationError) {
            try await confirmation.evaluate(.deviceOwner, localizedReason: prompt)
        } catch {
            throw VaultError(authentication: error, item: "Confirming this use of \(row.name) (it asks before each use)")
        }
    }

    /// Adds `constraints` to a key's stored ones, only ever tightening them
    /// (``KeyConstraints/tightened(by:)``): whoever may add a constraint
    /// (anyone with an agent's socket) must not be able to lift one.
    ///
    /// - Returns: The key with its constraints as now stored.
    package func constrain(service: String, name: String, with constraints: KeyConstraints) async throws(VaultError) -> VaultKey {
        let subkeys = vault.subkeys
        let row = try await vault.rows.verifiedRow(table: "key", service: service, account: name)
        let current = try KeyConstraintsRecord.open(row, key: subkeys.constraintsKey)?.constraints ?? .none
        let tightened = current.tightened(by: constraints)
        guard let unchanged = row.keyAttributes(subkeys: subkeys) else { throw VaultError(.tampered, "\(row.name) has attributes this Sesame cannot read") }
        if tightened == current { return unchanged }
        var updated = row
        try KeyConstraintsRecord(constraints: tightened, since: vault.authenticators.clock.now().timeIntervalSince1970,
                                 sinceBoot: vault.authenticators.clock.bootInstant())
            .seal(into: &updated, key: subkeys.constraintsKey)
        // Rows are only ever written sealed (SPEC D9): `write` upgrades the file first.
        updated.lookup = subkeys.lookup(table: updated.table, service: updated.service, account: updated.account)
        updated.mac = subkeys.mac(updated)
        let finished = updated
        try await vault.rows.write { db in
            // Only the row that was judged: a concurrent change is not overwritten.
            guard let stored = try ItemRow.fetch(db, table: "key", service: service, account: name, subkeys: subkeys),
                  stored.isSameRevision(as: row) else {
                throw VaultError(.ioError, "\(row.name) changed while its constraints were stored; try again")
            }
            try finished.replace(db, subkeys: subkeys)
        }
        guard let attributes = finished.keyAttributes(subkeys: subkeys) else { throw VaultError(.ioError, "\(row.name) was stored but cannot be described") }
        return attributes
    }

    /// Deletes the keys of `service` past their lifetime, as a listing that
    /// may write (the agent's) does; ``keys(service:)`` leaves them out.
    package func deleteExpired(service: String) async throws(VaultError) {
        let subkeys = vault.subkeys
        let clock = vault.authenticators.clock
        // Rows that do not open are left to the listing, which reports them.
        let rows = try await vault.rows.readDatabase { db in
            try ItemRow.fetchAll(db, table: "key", subkeys: subkeys).compactMap { try? $0.get() }
        }
        for row in rows where row.service == service && subkeys.verify(row) {
            if row.hasExpired(subkeys: subkeys, clock: clock) {
                try await delete(row)
            }
        }
    }

    /// Deletes `row` if it is still the row that was judged.
    private func delete(_ row: ItemRow) async throws(VaultError) {
        try await vault.rows.write { db in
            // By revision, not MAC: the write may have just sealed the file, which changes every MAC.
            try db.execute(sql: "DELETE FROM key WHERE id = ? AND ciphertext = ?", arguments: [row.id, Data(row.ciphertext)])
        }
    }
}
