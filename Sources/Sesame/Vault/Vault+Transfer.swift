import GRDB

/// Export to and import from a passphrase-encrypted file (SPEC D2):
/// "ThisDeviceOnly" items never leave the device.
extension Vault {
    /// Exports every item that may leave the device, encrypted to `passphrase`.
    ///
    /// An item carries its name, label, protection, dates and value. A
    /// collection's item (SPEC D10) leaves without its attributes, content
    /// type and recorded apps (SPEC D13): imported, it is an ordinary item
    /// of its collection's service, which the Secret Service does not serve.
    ///
    /// Asks the owner once (`deviceOwner`, with `operationPrompt`) instead of
    /// once per item, as a backup would. Items it cannot open are listed in
    /// the report with the reason, never dropped silently: protected keys
    /// (SPEC D7: a private key never leaves), "ThisDeviceOnly" items, `biometryCurrentSet` items whose enrolment changed, and
    /// `applicationPassword` items without the right password on `context`.
    ///
    /// Where nothing on this machine can ask the owner (no fingerprint
    /// reader and no PAM service: `deviceOwner` fails with `passcodeNotSet`,
    /// as on a vault that a vault passcode alone protects), the export goes
    /// on without that check and carries only what opening the vault already
    /// gives: the items without an access control, and `applicationPassword`
    /// items whose password is on `context`. Every other item is listed as
    /// needing the owner. The check can therefore be skipped only where it
    /// guards nothing that ``VaultItems/read(service:account:operationPrompt:context:)`` would not hand
    /// out without it.
    ///
    /// - Parameters:
    ///   - passphrase: Protects the file; choose a long one.
    ///   - cost: The scrypt cost for the passphrase.
    ///   - operationPrompt: Why the app exports, shown on the prompt.
    ///   - context: Supplies application passwords; a new context by default.
    /// - Returns: The file and what was left out.
    /// - Throws: ``VaultError`` with `userCanceled`, `authFailed`,
    ///   `interactionNotAllowed`, `tampered` (a row failed its integrity
    ///   check: nothing is exported), `damaged`, `ioError`.
    public func export(
        passphrase: SecretBytes, cost: ScryptCost = .standard, operationPrompt: String, context: AuthenticationContext? = nil
    ) async throws(VaultError) -> TransferReport {
        let context = context ?? makeContext()
        // What the owner's answer lets the export open: every factor, or,
        // where nothing can ask, only what needs no owner.
        let satisfied: Set<AccessControl.Flag>
        do throws(AuthenticationError) {
            try await context.evaluate(.deviceOwner, localizedReason: operationPrompt)
            satisfied = Set(AccessControl.Flag.allCases)
        } catch where error.code == .passcodeNotSet {
            satisfied = [.applicationPassword]
        } catch {
            throw VaultError(authentication: error, item: "Exporting the vault")
        }
        let subkeys = subkeys
        let rows = try await self.rows.readDatabase { db in
            try ItemRow.fetchAll(db, table: "item", subkeys: subkeys).map { result throws in try result.get() }
        }.sorted { ($0.service, $0.account) < ($1.service, $1.account) }
        if context.domainState == nil {
            // Learns the enrolment without a scan, for biometryCurrentSet items.
            try? await context.canEvaluate(.biometrics)
        }
        var entries: [ExportFile.Entry] = []
        var skipped: [TransferReport.Skipped] = []
        for row in rows {
            guard subkeys.verify(row), let attributes = row.attributes, let wrappings = try? Wrapping.decode(row.wrappings) else {
                throw VaultError(.tampered, "\(row.name) failed its integrity check; nothing was exported")
            }
            if attributes.accessibility.isThisDeviceOnly {
                skipped.append(.init(service: row.service, account: row.account, reason: "\(attributes.accessibility.rawValue) items never leave this device"))
                continue
            }
            do throws(VaultError) {
                guard wrappings.contains(where: { $0.factors.isSubset(of: satisfied) }) else {
                    skipped.append(.init(service: row.service, account: row.account, reason: Self.ownerCannotBeAsked))
                    continue
                }
                let key = try await self.rows.unwrapItemKey(
                    row, accessControl: attributes.accessControl, accessibility: attributes.accessibility, wrappings: wrappings,
                    satisfied: attributes.accessControl.flags.intersection(satisfied), domainState: context.domainState, context: context)
                let value = try self.rows.open(row.ciphertext, key: key, associatedData: row.associatedData, what: "the value of \(row.name)")
                entries.append(ExportFile.Entry(fields: row.fields, value: value))
            } catch {
                skipped.append(.init(service: row.service, account: row.account, reason: error.message))
            }
        }
        // SPEC D7: private keys never leave; each is named in the report.
        for key in try await keys.list() {
            skipped.append(.init(service: key.service, account: key.name, reason: "key \"\(key.name)\" is a private key; private keys never leave this device"))
        }
        let file = try ExportFile.write(entries, passphrase: passphrase, cost: cost)
        for index in entries.indices { wipe(&entries[index].value) }
        return TransferReport(file: file, transferred: entries.count, skipped: skipped)
    }

    /// Why an export left out an item that needs the owner on a machine
    /// that cannot ask.
    static let ownerCannotBeAsked = "needs the owner (a fingerprint or the login password), and nothing on this machine can ask: "
        + "no fingerprint reader and no PAM service"

    /// Imports an export file. Never prompts; existing items are never
    /// overwritten (they are listed as skipped).
    ///
    /// - Parameters:
    ///   - file: What ``export(passphrase:cost:operationPrompt:context:)`` returned.
    ///   - passphrase: The file's passphrase.
    ///   - context: Supplies application passwords and the domain state that
    ///     `biometryCurrentSet` items are bound to on this machine.
    /// - Returns: What was imported and what was not, with reasons: an item
    ///   whose name holds a control character, or whose date is not finite or
    ///   in the future (beyond a few minutes), is skipped (SPEC D9).
    /// - Throws: ``VaultError`` with `damaged` (not an export, truncated,
    ///   corrupted, unknown version: nothing imported) or `authFailed`
    ///   (wrong passphrase).
    public func importItems(from file: [UInt8], passphrase: SecretBytes, context: AuthenticationContext? = nil) async throws(VaultError) -> TransferReport {
        var entries = try ExportFile.read(file, passphrase: passphrase)
        defer { for index in entries.indices { wipe(&entries[index].value) } }
        var transferred = 0
        var skipped: [TransferReport.Skipped] = []
        let now = authenticators.clock.now().timeIntervalSince1970
        for entry in entries {
            // SPEC D9: a date from outside is finite and not in the future, or
            // the item would sort before everything stored later (git credentials).
            if let problem = OutsideText.problem(date: entry.created, now: now) ?? OutsideText.problem(date: entry.modified, now: now) {
                skipped.append(.init(service: entry.service, account: entry.account, reason: "Not imported: \(problem)"))
                continue
            }
            guard let accessibility = ItemAccessibility(rawValue: entry.accessibility),
                  let accessControl = AccessControl(canonicalEncoding: entry.accessControl)
            else {
                skipped.append(.init(service: entry.service, account: entry.account, reason: "Unknown accessibility or access control in the file"))
                continue
            }
            do throws(VaultError) {
                try await items.addItem(SecretBytes(entry.value), service: entry.service, account: entry.account, label: entry.label,
                                  accessibility: accessibility, accessControl: accessControl, context: context,
                                  dates: (entry.created, entry.modified))
                transferred += 1
            } catch {
                skipped.append(.init(service: entry.service, account: entry.account, reason: error.message))
            }
        }
        return TransferReport(file: [], transferred: transferred, skipped: skipped)
    }
}
