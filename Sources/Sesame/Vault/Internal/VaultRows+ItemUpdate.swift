#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

extension VaultRows {
    /// Seals `value` into `original`'s row and writes it, only if the row is
    /// still the revision that was read: another process may have changed
    /// or deleted the item while this one prompted.
    func replace(_ original: ItemRow, with value: SecretBytes, key itemKey: SymmetricKey, orElse consequence: String) async throws(VaultError) {
        var row = original
        row.modified = max(vault.authenticators.clock.now().timeIntervalSince1970, original.modified)
        try sealValue(value, into: &row, key: itemKey)
        let finished = row
        let subkeys = vault.subkeys
        let service = original.service, account = original.account
        try await write { db in
            guard let current = try ItemRow.fetch(db, service: service, account: account, subkeys: subkeys),
                  current.isSameRevision(as: original)
            else { throw VaultError(.itemNotFound, "\(original.name) changed or was deleted while authenticating; \(consequence)") }
            try finished.replace(db, subkeys: subkeys)
        }
    }
}
