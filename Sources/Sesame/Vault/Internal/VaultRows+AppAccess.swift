/// Whether the app a context acts for may use an attributed item another
/// app made (SPEC D13): the one place that asks the owner and records the
/// answer. Every read of an item's value passes here (``unlockItemKey(_:operation:prompt:context:)``),
/// whichever API reads it (the Secret Service, `vault.items`, the CLI), and
/// so does every change and delete of an attributed item.
extension VaultRows {
    /// What an "allow once" is remembered by in a context: the row's table and id.
    static func appAccessKey(_ row: ItemRow) -> String { "\(row.table)/\(row.id)" }

    /// Whether `row` admits the context's app now, without asking anyone.
    func admitsApp(_ row: ItemRow, context: AuthenticationContext) -> Bool {
        guard let item = row.attributedItem, item.app != nil else { return true }
        return item.admits(context.askingApp) || context.isAllowedOnce(Self.appAccessKey(row))
    }

    /// Passes when `row` admits the context's app (``AttributedItem/admits(_:)``)
    /// or the owner allowed it once on this context; otherwise asks the
    /// owner when `mayAsk`, naming both apps.
    ///
    /// - Throws: ``VaultError`` `interactionNotAllowed` when it may not ask
    ///   or nothing can (saying so: never reported as the owner's refusal),
    ///   `userCanceled` when the owner refused or closed the dialog.
    func admitApp(_ row: ItemRow, operation: AppAccessRequest.Operation, context: AuthenticationContext, mayAsk: Bool) async throws(VaultError) {
        guard let item = row.attributedItem, let maker = item.app, !admitsApp(row, context: context) else { return }
        let asking = context.askingApp
        let request = AppAccessRequest(asking: asking, maker: maker, itemLabel: item.label, operation: operation)
        guard mayAsk, !context.interactionNotAllowed else {
            throw VaultError(.interactionNotAllowed, "\(request.question). The owner has not allowed it; asking is not allowed here")
        }
        // The prompts' presenter asks when it can and no other was named.
        guard let presenter = context.authenticators.appAccess ?? (context.authenticators.presenter as? any AppAccessPresenter) else {
            throw VaultError(.interactionNotAllowed, "\(request.question). Nothing here can ask the owner (no dialog, no terminal), so it is refused")
        }
        switch await presenter.askAppAccess(request) {
        case .allowOnce:
            context.allowOnce(Self.appAccessKey(row))
        case .allowAlways:
            // An app that cannot be named cannot be remembered: its "always" is this once.
            if let asking, let collection = CollectionNames.collection(ofService: row.service) {
                try await vault.collections.allowApp(asking, forItem: row.account, inCollection: collection)
            }
            context.allowOnce(Self.appAccessKey(row))
        case .refused:
            throw VaultError(.userCanceled, "The owner refused: \(request.question)")
        case .nobodyAsked(let why):
            throw VaultError(.interactionNotAllowed, "\(request.question). Nobody could be asked: \(why.escapingControlCharacters())")
        }
    }
}
