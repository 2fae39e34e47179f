#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// Reading and changing an attributed item (SPEC D10), and whether reading
/// it would prompt: the item's access control, exactly as ``read(service:account:operationPrompt:context:)``
/// applies it (SPEC D1, D3, A6, A12).
extension VaultCollections {
    /// Reads an item's value, authenticating
    /// exactly as ``VaultItems/read(service:account:operationPrompt:context:)`` does.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - operationPrompt: Why the caller reads it, shown on the prompt.
    ///   - context: An authorised context, or one to prompt on.
    /// - Returns: The value; wiped when released.
    /// - Throws: ``VaultError`` as `read` does.
    public func secret(
        ofItem id: String, inCollection collection: String, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> SecretBytes {
        let row = try await attributedRow(id, inCollection: collection)
        return try await vault.items.read(service: row.service, account: row.account, operationPrompt: operationPrompt, context: context)
    }

    /// Reads an item's value and description if `context` already
    /// satisfies its access control: one verified row read where ``needsAuthentication(item:inCollection:context:)``,
    /// ``item(_:inCollection:)`` and ``secret(ofItem:inCollection:operationPrompt:context:)``
    /// would make four. Never prompts for a locked item: it returns `nil`.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - operationPrompt: Why the caller reads the item it is given; shown
    ///     only by an application password's prompt, which "locked" does not
    ///     cover.
    ///   - context: The caller's context, authorised by its `Unlock` or not.
    /// - Returns: The description and the value (wiped when released), or
    ///   `nil` when reading would need the owner.
    /// - Throws: ``VaultError`` as ``secret(ofItem:inCollection:operationPrompt:context:)`` does.
    public func secretIfUnlocked(
        ofItem id: String, inCollection collection: String, operationPrompt: (AttributedItem) -> String,
        context: AuthenticationContext
    ) async throws(VaultError) -> (item: AttributedItem, value: SecretBytes)? {
        let row = try await attributedRow(id, inCollection: collection)
        guard let item = row.attributedItem else { throw VaultError(.tampered, "\(row.name) has attributes this Sesame cannot read") }
        // Another app's item is locked for this one until the owner allows it (SPEC D13).
        if !vault.rows.admitsApp(row, context: context) { return nil }
        if await context.needsPrompt(for: item.accessControl, operation: .useItem) { return nil }
        let itemKey = try await vault.rows.unlockItemKey(row, operation: .useItem, prompt: operationPrompt(item), context: context)
        var plaintext = try vault.rows.open(row.ciphertext, key: itemKey, associatedData: row.associatedData, what: "the value of \(row.name)")
        defer { wipe(&plaintext) }
        return (item, SecretBytes(plaintext))
    }

    /// Replaces an item's value,
    /// authenticating as ``secret(ofItem:inCollection:operationPrompt:context:)`` does.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - operationPrompt: Why the caller changes it, shown on the prompt.
    ///   - context: An authorised context, or one to prompt on.
    /// - Throws: ``VaultError`` as ``VaultItems/update(_:service:account:operationPrompt:context:)``.
    public func setSecret(
        _ value: SecretBytes, ofItem id: String, inCollection collection: String, operationPrompt: String,
        context: AuthenticationContext? = nil
    ) async throws(VaultError) {
        let row = try await attributedRow(id, inCollection: collection)
        let context = context ?? vault.makeContext()
        try await vault.rows.admitApp(row, operation: .change, context: context, mayAsk: true)
        try await vault.items.update(value, service: row.service, account: row.account, operationPrompt: operationPrompt, context: context)
    }

    /// Relabels an item. Never prompts. The label is what a prompt shows
    /// the owner, so an item protected by an access control is relabelled
    /// only when `context` already satisfies it (SPEC D10), as its value
    /// would be changed.
    ///
    /// - Parameters:
    ///   - label: The new label; never a control character.
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - context: The caller's context; without one, a context of the
    ///     vault's own, as ``needsAuthentication(item:inCollection:context:)`` makes.
    /// - Throws: ``VaultError`` with `itemNotFound` (also when it changed
    ///   meanwhile), `interactionNotAllowed` (protected, and `context` does
    ///   not satisfy it), `invalidName`, `invalidArgument`, `tampered`, `ioError`.
    public func setItemLabel(
        _ label: String, ofItem id: String, inCollection collection: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) {
        try CollectionNames.check(label: label, what: "item")
        try await changeAttributedItem(id, inCollection: collection, what: "its label", context: context) { row in row.label = label; return true }
    }

    /// Replaces an item's attributes, and its index entries with them.
    /// Never prompts; a protected item only when `context` already
    /// satisfies its access control, as ``setItemLabel(_:ofItem:inCollection:context:)``.
    ///
    /// - Parameters:
    ///   - attributes: The new attributes, checked as ``createItem(in:label:attributes:contentType:value:accessControl:replacing:context:dates:app:)`` checks them.
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - context: The caller's context, as for the label.
    /// - Throws: ``VaultError`` with `itemNotFound` (also when it changed
    ///   meanwhile), `interactionNotAllowed`, `invalidName`, `invalidArgument`, `tampered`, `ioError`.
    public func setItemAttributes(
        _ attributes: [String: String], ofItem id: String, inCollection collection: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) {
        try CollectionNames.check(attributes: attributes)
        try await changeAttributedItem(id, inCollection: collection, what: "its attributes", context: context) { row in
            row.attributedFields?.attributes = attributes
            return true
        }
    }

    /// Whether reading the item now would need the owner (SPEC D10: the item
    /// is "locked"). Never prompts, never counts an attempt,
    /// never writes.
    ///
    /// `false` for an item without access control, and for one whose access
    /// control `context` already satisfies: authorised ahead of time
    /// (SPEC A12), a biometric match inside the reuse window (SPEC A6) with
    /// the same enrolment, or the application password set on it (SPEC D6;
    /// whether it is right is only known when the value is read). `true`
    /// otherwise, including when biometrics are locked out or unavailable.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - context: The context a read would use; without one, a context of
    ///     the vault's own (its ``Vault/reuseDuration``), as `read` makes.
    /// - Returns: Whether a read would prompt.
    /// - Throws: ``VaultError`` with `itemNotFound`, `tampered`, `damaged`, `ioError`.
    public func needsAuthentication(
        item id: String, inCollection collection: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> Bool {
        let row = try await attributedRow(id, inCollection: collection)
        guard let accessControl = AccessControl(canonicalEncoding: row.accessControl) else {
            throw VaultError(.tampered, "\(row.name) has an unreadable access control")
        }
        let context = context ?? vault.makeContext()
        // Another app's item needs the owner's word first (SPEC D13).
        if !vault.rows.admitsApp(row, context: context) { return true }
        guard !accessControl.userFactors.isEmpty else { return false }
        return await context.needsPrompt(for: accessControl, operation: .useItem)
    }

    /// Applies `change` to the item's row and writes it re-MACed, only if no
    /// other process rewrote the row meanwhile (compare and swap): the one
    /// way an attributed item's description changes, its value, wrappings
    /// and access control kept as they are. `change` may throw to refuse
    /// the row as it finds it, and returns whether it changed anything
    /// (nothing is written otherwise).
    ///
    /// A protected item changes only when `context` already satisfies its
    /// access control, unless `gated` is false: for what only decides
    /// whether the owner is asked about an app (SPEC D13), never who may
    /// read the value.
    func changeAttributedItem(
        _ id: String, inCollection collection: String, what: String, context: AuthenticationContext?, gated: Bool = true,
        _ change: (inout ItemRow) throws(VaultError) -> Bool
    ) async throws(VaultError) {
        let original = try await attributedRow(id, inCollection: collection)
        guard let accessControl = AccessControl(canonicalEncoding: original.accessControl) else {
            throw VaultError(.tampered, "\(original.name) has an unreadable access control")
        }
        if gated {
            // Never prompts: another app's item is changed only once the owner allowed it (SPEC D13).
            try await vault.rows.admitApp(original, operation: .change, context: context ?? vault.makeContext(), mayAsk: false)
        }
        if gated, !accessControl.userFactors.isEmpty, await (context ?? vault.makeContext()).needsPrompt(for: accessControl, operation: .useItem) {
            throw VaultError(.interactionNotAllowed, "\(original.name) is protected (\(accessControl)); changing \(what) needs that access control first")
        }
        var row = original
        guard try change(&row) else { return }
        row.modified = max(vault.authenticators.clock.now().timeIntervalSince1970, original.modified)
        row.mac = vault.subkeys.mac(row)
        let finished = row
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            guard let current = try ItemRow.fetch(db, service: original.service, account: original.account, subkeys: subkeys),
                  current.isSameRevision(as: original), current.label == original.label, current.attributedFields == original.attributedFields
            else { throw VaultError(.itemNotFound, "\(original.name) changed or was deleted meanwhile; nothing was written") }
            try finished.replace(db, subkeys: subkeys)
        }
    }
}
