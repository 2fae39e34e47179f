/// The apps an attributed item records (SPEC D13, the keychain's access
/// group): the app that made it and the apps its owner allowed always,
/// stored with the item (SPEC D8) and sealed with its other attributes
/// (SPEC D9). ``AttributedItem/admits(_:)`` reads them.
///
/// None of these needs the item's value or its access control, and none
/// prompts: they decide only whether the owner is asked before another app
/// uses the item, never who may read its value, so recording the owner's
/// answer must not take a second authentication. The caller (the Secret
/// Service, once the owner answered) is the one that asks. Everything else
/// of the item (value, access control, label, attributes, created date)
/// is kept; its modified date moves.
extension VaultCollections {
    /// Allows `app` to use an item without asking its owner again: the
    /// owner's "allow always". Allowing an app already allowed changes
    /// nothing.
    ///
    /// - Parameters:
    ///   - app: The app to allow; an executable by its absolute path.
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    /// - Throws: ``VaultError`` with `itemNotFound` (also when it changed
    ///   meanwhile), `invalidArgument` (the item already allows 64 apps, or
    ///   `app` cannot be recorded), `tampered`, `ioError`.
    public func allowApp(_ app: AppIdentity, forItem id: String, inCollection collection: String) async throws(VaultError) {
        try await changeApps(ofItem: id, inCollection: collection, what: "the apps it allows") { fields throws(VaultError) in
            guard !fields.allowedApps.contains(app) else { return false }
            fields.allowedApps = try AttributedItemFields.allowed(fields.allowedApps + [app])
            return true
        }
    }

    /// Withdraws what ``allowApp(_:forItem:inCollection:)`` allowed: the
    /// owner is asked again before `app` uses the item. Removing an app not
    /// allowed changes nothing; the item's own ``AttributedItem/app`` is not
    /// removed this way (``bindItem(_:inCollection:to:)`` changes it).
    ///
    /// - Parameters:
    ///   - app: The app to remove.
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    /// - Throws: ``VaultError`` with `itemNotFound` (also when it changed
    ///   meanwhile), `tampered`, `ioError`.
    public func removeAllowedApp(_ app: AppIdentity, fromItem id: String, inCollection collection: String) async throws(VaultError) {
        try await changeApps(ofItem: id, inCollection: collection, what: "the apps it allows") { fields throws(VaultError) in
            guard let index = fields.allowedApps.firstIndex(of: app) else { return false }
            fields.allowedApps.remove(at: index)
            return true
        }
    }

    /// Records `app` as the item's app, or with `nil` records none, which
    /// opens the item to every app as before apps were recorded. The apps
    /// the owner allowed are kept either way.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - app: The app the item now belongs to; an executable by its
    ///     absolute path; `nil` for none.
    /// - Throws: ``VaultError`` with `itemNotFound` (also when it changed
    ///   meanwhile), `invalidArgument` (`app` cannot be recorded),
    ///   `tampered`, `ioError`.
    public func bindItem(_ id: String, inCollection collection: String, to app: AppIdentity?) async throws(VaultError) {
        if let app { try AttributedItemFields.check(app: app, what: "The item's app") }
        try await changeApps(ofItem: id, inCollection: collection, what: "its app") { fields throws(VaultError) in
            guard fields.app != app else { return false }
            fields.app = app
            return true
        }
    }

    /// Asks the owner, when the item was made by another app than the one
    /// `context` acts for, whether that app may use it (SPEC D13), through
    /// the context's ``Authenticators/appAccess``; returns at once when the
    /// item admits the app. "Allow once" lasts as long as `context`; "allow
    /// always" is stored with the item. What a Secret Service prompt runs
    /// before the item's access control.
    ///
    /// - Parameters:
    ///   - id: The item's identifier.
    ///   - collection: Its collection's identifier.
    ///   - operation: What the app wants, for the question.
    ///   - context: The asking app's context.
    /// - Throws: ``VaultError`` `userCanceled` (refused or the dialog
    ///   closed), `interactionNotAllowed` (nothing could ask, or the context
    ///   does not allow interaction), `itemNotFound`, `tampered`, `ioError`.
    public func askAppAccess(
        forItem id: String, inCollection collection: String, operation: AppAccessRequest.Operation, context: AuthenticationContext
    ) async throws(VaultError) {
        let row = try await attributedRow(id, inCollection: collection)
        try await vault.rows.admitApp(row, operation: operation, context: context, mayAsk: true)
    }

    /// Changes the recorded apps through the one path that rewrites an
    /// attributed item's description, without its access control.
    private func changeApps(
        ofItem id: String, inCollection collection: String, what: String,
        _ change: (inout AttributedItemFields) throws(VaultError) -> Bool
    ) async throws(VaultError) {
        try await changeAttributedItem(id, inCollection: collection, what: what, context: nil, gated: false) { row throws(VaultError) in
            // attributedRow only returns rows that have these fields.
            guard var fields = row.attributedFields else { return false }
            guard try change(&fields) else { return false }
            row.attributedFields = fields
            return true
        }
    }
}
