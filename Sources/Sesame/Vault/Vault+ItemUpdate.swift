#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

extension Vault {
    /// Reads an item's value, authenticating once as
    /// ``read(service:account:operationPrompt:context:)`` does, and replaces
    /// it with what `change` makes of it, only if no other process changed
    /// the item meanwhile (compare and swap on the item's revision).
    ///
    /// For integrations whose stored value moves on with each use (a HOTP
    /// counter): the new value is durable before the result is handed back,
    /// so a crash never hands out the same result twice, and two processes
    /// reading the same value never both succeed.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account.
    ///   - operationPrompt: Why the item is needed, shown on the prompt.
    ///   - context: An authorised context, or one to prompt on.
    ///   - consequence: The end of the message when another process got there
    ///     first ("no code was used").
    ///   - change: Given the value, returns the value to store (`nil`: leave
    ///     the item as it is) and the caller's result.
    /// - Returns: What `change` returned.
    /// - Throws: ``VaultError`` as `read` does; `change`'s own error;
    ///   `itemNotFound` when another process changed or deleted the item
    ///   while this one authenticated (nothing was written).
    package func updateValue<Result: Sendable>(
        service: String, account: String, operationPrompt: String, context: AuthenticationContext?,
        consequence: String = "nothing was used", _ change: (SecretBytes) throws(VaultError) -> (newValue: SecretBytes?, result: Result)
    ) async throws(VaultError) -> Result {
        let original = try await verifiedRow(service: service, account: account)
        let itemKey = try await unlockItemKey(original, operation: .useItem, prompt: operationPrompt, context: context)
        var plaintext = try open(original.ciphertext, key: itemKey, associatedData: original.associatedData, what: "the value of \(original.name)")
        let stored = SecretBytes(plaintext)
        wipe(&plaintext)
        let (newValue, result) = try change(stored)
        guard let newValue else { return result }
        try await replace(original, with: newValue, key: itemKey, orElse: consequence)
        return result
    }

    /// Seals `value` into `original`'s row and writes it, only if the row is
    /// still the revision that was read: another process may have changed
    /// or deleted the item while this one prompted.
    func replace(_ original: ItemRow, with value: SecretBytes, key itemKey: SymmetricKey, orElse consequence: String) async throws(VaultError) {
        var row = original
        row.modified = max(authenticators.clock.now().timeIntervalSince1970, original.modified)
        try sealValue(value, into: &row, key: itemKey)
        let finished = row
        let vaultKeys = vaultKeys
        let service = original.service, account = original.account
        try await write { db in
            guard let current = try ItemRow.fetch(db, service: service, account: account, vaultKeys: vaultKeys),
                  current.isSameRevision(as: original)
            else { throw VaultError(.itemNotFound, "\(original.name) changed or was deleted while authenticating; \(consequence)") }
            try finished.replace(db, vaultKeys: vaultKeys)
        }
    }
}
