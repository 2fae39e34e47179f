#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// Adding, reading, changing and removing items (SPEC D2–D6).
extension Vault {
    /// No user check: the item opens whenever the vault is unlocked.
    public static let noAccessControl = try! AccessControl([])  // try!: only contradictory biometry flags are refused, and there are none

    /// The largest value an item holds: 16 MiB. Far more than any password,
    /// token or key file; a larger value is refused by name (`invalidArgument`)
    /// before anything is asked or written, whichever API or command stores it.
    public static let maximumValueSize = 16 << 20

    /// Refuses a value over ``maximumValueSize``, naming what it was for.
    static func checkValueSize(_ value: SecretBytes, of name: String) throws(VaultError) {
        guard value.count <= maximumValueSize else {
            throw VaultError(.invalidArgument, "The value of \(name) is \(value.count) bytes; at most \(maximumValueSize) bytes (16 MiB) are stored")
        }
    }

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
        try Self.checkValueSize(value, of: name)
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
                replaced = try await verifiedRow(service: service, account: account)
            } catch where error.status == .itemNotFound {
                replaced = nil
            }
            // SPEC D11: a protected item is replaced only through its access control, and keeps it.
            if let replaced { accessControl = try await accessControlReplacing(replaced, requested: accessControl, context: context) }
        }
        let protection = try await newProtection(accessControl, accessibility: accessibility, operation: .createItem, name: name, context: context)
        let id = Int64.random(in: 1...Int64.max)
        let itemKey = SymmetricKey(size: .bits256)
        let wrappings = try wrap(itemKey, id: id, label: Labels.itemKey, accessControl: accessControl, accessibility: accessibility,
                                 protection: protection)
        let now = authenticators.clock.now().timeIntervalSince1970
        var row = ItemRow(
            id: id, service: service, account: account, label: label,
            accessibility: accessibility.rawValue, accessControl: accessControl.canonicalEncoding,
            created: dates?.created ?? now, modified: dates?.modified ?? now, wrappings: wrappings,
            commitment: protection.domainState.map { vaultKeys.commitment(to: $0) }, ciphertext: [])
        row.attributedFields = attributes.map { AttributedItemFields(contentType: "text/plain", attributes: $0) }
        try sealValue(value, into: &row, key: itemKey)
        let finished = row
        let keys = vaultKeys
        let checked = replaced
        try await write { db in
            if replacing, let current = try ItemRow.fetch(db, service: service, account: account, vaultKeys: keys) {
                // Only the row that was checked goes; one that appeared or changed since is kept.
                guard let checked, current.isSameRevision(as: checked) else {
                    throw VaultError(.duplicateItem, "\(name) changed while being replaced; it is kept as it is and nothing was written")
                }
                _ = try ItemRow.delete(db, service: service, account: account, vaultKeys: keys)
            }
            guard try ItemRow.fetch(db, service: service, account: account, vaultKeys: keys) == nil else {
                throw VaultError(.duplicateItem, "\(name) already exists; update it or delete it first")
            }
            try finished.insert(db, vaultKeys: keys)
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
        let row = try await verifiedRow(service: service, account: account)
        let itemKey = try await unlockItemKey(row, operation: .useItem, prompt: operationPrompt, context: context)
        var plaintext = try open(row.ciphertext, key: itemKey, associatedData: row.associatedData, what: "the value of \(row.name)")
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
        let original = try await verifiedRow(service: service, account: account)
        let itemKey = try await unlockItemKey(original, operation: .useItem, prompt: operationPrompt, context: context)
        try await replace(original, with: value, key: itemKey, orElse: "nothing was written")
    }

    /// Deletes an item. Never prompts, as the keychain's delete.
    ///
    /// - Parameters:
    ///   - service: The item's service.
    ///   - account: The item's account.
    /// - Throws: ``VaultError`` with `itemNotFound`, `ioError`.
    public func delete(service: String, account: String) async throws(VaultError) {
        let vaultKeys = vaultKeys
        try await write { db in
            guard try ItemRow.delete(db, service: service, account: account, vaultKeys: vaultKeys) else {
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
        let vaultKeys = vaultKeys
        return try await readDatabase { db in
            if try ItemRow.isSealed(db, table: "item") {
                let lookup = Data(vaultKeys.lookup(table: "item", service: service, account: account))
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
        let row = try await verifiedRow(service: service, account: account)
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
        try await verifiedRows(table: "item", service: service) { $0.attributes }
    }

    // MARK: Helpers

    /// Every row of `table` (of one service, or all), sorted, each checked
    /// and described by `describe`; rows that fail are all named in one
    /// `tampered` error. A `key` table that does not exist yet has no rows.
    /// Names are sealed (SPEC D9), so every row is opened and the service
    /// filtered here: a full scan, as listing always was.
    func verifiedRows<Described>(
        table: String, service: String?, _ describe: @escaping @Sendable (ItemRow) -> Described?
    ) async throws(VaultError) -> [Described] {
        let vaultKeys = vaultKeys
        let results = try await readDatabase { db in try ItemRow.fetchAll(db, table: table, vaultKeys: vaultKeys) }
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
            guard vaultKeys.verify(row), let value = describe(row) else {
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
        let vaultKeys = vaultKeys
        let row = try await readDatabase { db in
            try ItemRow.fetch(db, table: table, service: service, account: account, vaultKeys: vaultKeys)
        }
        guard let row, (row.key == nil) == (table == "item") else {
            throw VaultError(.itemNotFound, "No \(table) \"\(account)\" of \"\(service)\"")
        }
        guard vaultKeys.verify(row) else {
            throw VaultError(.tampered, "\(row.name) failed its integrity check: its row was edited, swapped or damaged. Sesame does not repair it")
        }
        return row
    }

    /// Encrypts `value` into `row` under the item key, bound to the row's
    /// identity, then MACs the row; the plaintext copy is wiped.
    func sealValue(_ value: SecretBytes, into row: inout ItemRow, key itemKey: SymmetricKey) throws(VaultError) {
        try Self.checkValueSize(value, of: row.name)
        var plaintext = value.withUnsafeBytes { Array($0) }
        defer { wipe(&plaintext) }
        row.ciphertext = try VaultError.sealing { () throws(CryptoFailure) in try Envelope.seal(plaintext, key: itemKey, associatedData: row.associatedData) }
        row.lookup = vaultKeys.lookup(table: row.table, service: row.service, account: row.account)
        row.mac = vaultKeys.mac(row)
    }

    /// Writes in one transaction, after bringing the file to the current
    /// format (rows are only ever written sealed).
    func write(_ body: @escaping @Sendable (Database) throws -> Void) async throws(VaultError) {
        try upgradeIfNeeded()
        do {
            try await database.write(body)
        } catch {
            throw VaultError(databaseError: error, path: path)
        }
    }

    func readDatabase<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(VaultError) -> Value {
        do {
            return try await database.read(body)
        } catch {
            throw VaultError(databaseError: error, path: path)
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
