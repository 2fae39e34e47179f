#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// Adding, reading, changing and removing items (SPEC D2–D6).
extension VaultItems {
    /// Adds an item. Never prompts.
    ///
    /// A `biometryCurrentSet` item is bound to the enrolment now (learnt
    /// from `context`, without a scan); an `applicationPassword` item needs
    /// the password set on `context` (SPEC D6).
    ///
    /// - Parameters:
    ///   - value: The secret.
    ///   - service: The service it belongs to; not empty.
    ///   - account: Its name within the service; not empty.
    ///   - label: A label for people.
    ///   - accessibility: When it may be read; ``ItemAccessibility/whenUnlocked`` by default.
    ///   - accessControl: Who may read it; none by default.
    ///   - context: Supplies the application password and the domain state; a
    ///     new context by default.
    /// - Throws: ``VaultError`` with `duplicateItem`, `authFailed` (no
    ///   application password on the context), `notAvailable` (no enrolled
    ///   biometric for `biometryCurrentSet`, no device passcode for
    ///   `whenPasscodeSetThisDeviceOnly`), `invalidArgument`, `ioError`.
    public func add(
        _ value: SecretBytes,
        service: String,
        account: String,
        label: String? = nil,
        accessibility: ItemAccessibility = .whenUnlocked,
        accessControl: AccessControl = Vault.noAccessControl,
        context: AuthenticationContext? = nil
    ) async throws(VaultError) {
        try await addItem(value, service: service, account: account, label: label, accessibility: accessibility,
                          accessControl: accessControl, context: context, dates: nil)
    }

    /// ``add(_:service:account:label:accessibility:accessControl:context:)``,
    /// keeping the dates of an imported item; with `replacing`, an item of
    /// the same name is deleted in the same transaction (never lost alone).
    /// With `attributes`, the item carries lookup attributes, sealed with its
    /// other attributes and found through keyed hashes by
    /// ``searchItems(service:attributes:)`` (SPEC D9).
    package func addItem(
        _ value: SecretBytes, service: String, account: String, label: String?, accessibility: ItemAccessibility,
        accessControl: AccessControl, context: AuthenticationContext?, dates: (created: Double, modified: Double)?,
        replacing: Bool = false, attributes: [String: String]? = nil
    ) async throws(VaultError) {
        guard !service.isEmpty, !account.isEmpty else {
            throw VaultError(.invalidArgument, "An item needs a service and an account (got \"\(service)\", \"\(account)\")")
        }
        try OutsideText.checkNames(service: service, account: account, label: label, what: "item")
        let name = "\"\(account)\" of \"\(service)\""
        try Vault.checkValueSize(value, of: name)
        if let attributes {
            // A collection's service holds only its own items, made by createItem.
            guard CollectionNames.collection(ofService: service) == nil else {
                throw VaultError(.invalidArgument, "\(name) is in a collection's service; create it in its collection instead")
            }
            try CollectionNames.check(attributes: attributes)
        }
        var accessControl = accessControl
        var replaced: ItemRow?
        if replacing {
            do throws(VaultError) {
                replaced = try await vault.rows.verifiedRow(service: service, account: account)
            } catch where error.status == .itemNotFound {
                replaced = nil
            }
            // SPEC D11: a protected item is replaced only through its access control, and keeps it.
            if let replaced { accessControl = try await vault.rows.accessControlReplacing(replaced, requested: accessControl, context: context) }
        }
        let protection = try await vault.rows.newProtection(accessControl, accessibility: accessibility, operation: .createItem, name: name, context: context)
        let id = Int64.random(in: 1...Int64.max)
        let itemKey = SymmetricKey(size: .bits256)
        let wrappings = try vault.rows.wrap(itemKey, id: id, label: Labels.itemKey, accessControl: accessControl, accessibility: accessibility,
                                 protection: protection)
        let now = vault.authenticators.clock.now().timeIntervalSince1970
        var row = ItemRow(
            id: id, service: service, account: account, label: label,
            accessibility: accessibility.rawValue, accessControl: accessControl.canonicalEncoding,
            created: dates?.created ?? now, modified: dates?.modified ?? now, wrappings: wrappings,
            commitment: protection.domainState.map { vault.subkeys.commitment(to: $0) }, ciphertext: [])
        row.attributedFields = attributes.map { AttributedItemFields(contentType: "text/plain", attributes: $0) }
        try vault.rows.sealValue(value, into: &row, key: itemKey)
        let finished = row
        let keys = vault.subkeys
        let checked = replaced
        try await vault.rows.write { db in
            if replacing, let current = try ItemRow.fetch(db, service: service, account: account, subkeys: keys) {
                // Only the row that was checked goes; one that appeared or changed since is kept.
                guard let checked, current.isSameRevision(as: checked) else {
                    throw VaultError(.duplicateItem, "\(name) changed while being replaced; it is kept as it is and nothing was written")
                }
                _ = try ItemRow.delete(db, service: service, account: account, subkeys: keys)
            }
            guard try ItemRow.fetch(db, service: service, account: account, subkeys: keys) == nil else {
                throw VaultError(.duplicateItem, "\(name) already exists; update it or delete it first")
            }
            try finished.insert(db, subkeys: keys)
        }
    }

    /// Reads an item's value (SPEC D1, D3).
    ///
    /// When `context` was already authorised for the item's access control
    /// with ``AuthenticationContext/evaluateAccessControl(_:operation:localizedReason:)``
    /// for ``AccessControlOperation/useItem``, no prompt appears. Otherwise
    /// the vault prompts with `operationPrompt`, on `context` (whose reuse
    /// window applies) or on a new one. Biometrics locked out: the device
    /// passcode is asked for first to lift the lockout (SPEC D1).
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account.
    ///   - operationPrompt: Why the app reads it, shown on the prompt.
    ///   - context: An authorised context, or one to prompt on.
    /// - Returns: The value; wiped when released.
    /// - Throws: ``VaultError`` with `itemNotFound`, `userCanceled`,
    ///   `authFailed` (no match, wrong application password),
    ///   `interactionNotAllowed`, `notAvailable` (biometrics unavailable, and why),
    ///   `itemInvalidated` (SPEC D5), `tampered`, `damaged`, `ioError`.
    public func read(
        service: String, account: String, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> SecretBytes {
        let row = try await vault.rows.verifiedRow(service: service, account: account)
        let itemKey = try await vault.rows.unlockItemKey(row, operation: .useItem, prompt: operationPrompt, context: context)
        var plaintext = try vault.rows.open(row.ciphertext, key: itemKey, associatedData: row.associatedData, what: "the value of \(row.name)")
        defer { wipe(&plaintext) }
        return SecretBytes(plaintext)
    }

    /// Replaces an item's value, authenticating as ``read(service:account:operationPrompt:context:)`` does.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - service: The item's service.
    ///   - account: The item's account.
    ///   - operationPrompt: Why the app changes it, shown on the prompt.
    ///   - context: An authorised context, or one to prompt on.
    /// - Throws: ``VaultError``, as ``read(service:account:operationPrompt:context:)``;
    ///   `itemNotFound` also when the item changed or vanished meanwhile.
    public func update(
        _ value: SecretBytes, service: String, account: String, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) {
        let original = try await vault.rows.verifiedRow(service: service, account: account)
        let itemKey = try await vault.rows.unlockItemKey(original, operation: .useItem, prompt: operationPrompt, context: context)
        try await vault.rows.replace(original, with: value, key: itemKey, orElse: "nothing was written")
    }

    /// Deletes an item. Never prompts, as the keychain's delete.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account.
    /// - Throws: ``VaultError`` with `itemNotFound`, `ioError`.
    public func delete(service: String, account: String) async throws(VaultError) {
        let subkeys = vault.subkeys
        try await vault.rows.write { db in
            guard try ItemRow.delete(db, service: service, account: account, subkeys: subkeys) else {
                throw VaultError(.itemNotFound, "No item \"\(account)\" of \"\(service)\" to delete")
            }
        }
    }

    /// Whether an item exists. Never prompts, decrypts nothing.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account.
    /// - Returns: `true` when it exists.
    /// - Throws: ``VaultError`` with `damaged` or `ioError`.
    public func contains(service: String, account: String) async throws(VaultError) -> Bool {
        let subkeys = vault.subkeys
        return try await vault.rows.readDatabase { db in
            if try ItemRow.isSealed(db, table: "item") {
                let lookup = Data(subkeys.lookup(table: "item", service: service, account: account))
                return try Bool.fetchOne(db, sql: "SELECT 1 FROM item WHERE lookup = ?", arguments: [lookup]) ?? false
            }
            return try Bool.fetchOne(db, sql: "SELECT 1 FROM item WHERE service = ? AND account = ?", arguments: [service, account]) ?? false
        }
    }

    /// One item's attributes, never its value. Never prompts; reads one row,
    /// whatever the size of the vault.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account.
    /// - Returns: The item's attributes.
    /// - Throws: ``VaultError`` with `itemNotFound`, `tampered` (the row fails
    ///   its integrity check), `damaged`, `ioError`.
    public func attributes(service: String, account: String) async throws(VaultError) -> VaultItem {
        let row = try await vault.rows.verifiedRow(service: service, account: account)
        guard let item = row.attributes else {
            throw VaultError(.tampered, "\(row.name) has attributes this Sesame cannot read")
        }
        return item
    }

    /// The items' attributes, never their values. Never prompts.
    ///
    /// - Parameter service: Only this service's items; all by default.
    /// - Returns: The items, sorted by service and account.
    /// - Throws: ``VaultError`` with `tampered` when a row fails its integrity
    ///   check (named in the message; other items stay readable one by one),
    ///   `damaged`, `ioError`.
    public func list(service: String? = nil) async throws(VaultError) -> [VaultItem] {
        try await vault.rows.verifiedRows(table: "item", service: service) { $0.attributes }
    }

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
        let original = try await vault.rows.verifiedRow(service: service, account: account)
        let itemKey = try await vault.rows.unlockItemKey(original, operation: .useItem, prompt: operationPrompt, context: context)
        var plaintext = try vault.rows.open(original.ciphertext, key: itemKey, associatedData: original.associatedData, what: "the value of \(original.name)")
        let stored = SecretBytes(plaintext)
        wipe(&plaintext)
        let (newValue, result) = try change(stored)
        guard let newValue else { return result }
        try await vault.rows.replace(original, with: newValue, key: itemKey, orElse: consequence)
        return result
    }
}
