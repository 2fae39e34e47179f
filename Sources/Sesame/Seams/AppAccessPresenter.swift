/// Asks the owner whether an app may use an item that another app made
/// (SPEC D13), in the dialog the owner already knows (pinentry, SPEC A5),
/// or on the asking shell's terminal.
///
/// One role, one protocol: a presenter that shows authentication prompts
/// may also conform. A context with none cannot ask, and an app that the
/// item does not admit is then refused, never let through.
public protocol AppAccessPresenter: Sendable {
    /// Shows `request` until the owner answers or closes it.
    ///
    /// - Parameter request: Who asks, who made the item, which item.
    /// - Returns: The owner's answer; ``AppAccessAnswer/refused`` for a
    ///   closed dialog, ``AppAccessAnswer/nobodyAsked(_:)`` when nothing
    ///   could be shown.
    func askAppAccess(_ request: AppAccessRequest) async -> AppAccessAnswer
}
