/// Replacing an item (SPEC D11): nothing from outside lowers a protection.
///
/// An import, a Secret Service client's `CreateItem(replace)` and git's
/// `store` all put a new value where an item already is. If that item's
/// access control asks for someone, the replacement must pass it first,
/// without a prompt (on a context already authorised for it), and keeps
/// it: a client never turns a finger-protected item into an open one, nor
/// overwrites it unseen.
extension VaultRows {
    /// The access control the replacement of `existing` gets, once the
    /// caller has shown it may replace it. Never prompts.
    ///
    /// - Parameters:
    ///   - existing: The verified row about to be replaced.
    ///   - requested: What the caller asked the new item to have.
    ///   - context: The caller's context: it must already satisfy the
    ///     existing item's access control (an application password is
    ///     checked, by unwrapping the item's key, and counted like a read).
    /// - Returns: `requested` for an item open to anyone; otherwise the
    ///   existing access control, unchanged.
    /// - Throws: ``VaultError`` `interactionNotAllowed` naming the item and
    ///   its protection when `context` does not satisfy it; `authFailed`
    ///   for a wrong application password; `tampered`.
    func accessControlReplacing(
        _ existing: ItemRow, requested: AccessControl, context: AuthenticationContext?
    ) async throws(VaultError) -> AccessControl {
        guard let current = AccessControl(canonicalEncoding: existing.accessControl) else {
            throw VaultError(.tampered, "\(existing.name) has an unreadable access control")
        }
        guard !current.userFactors.isEmpty else { return requested }
        let context = context ?? vault.makeContext()
        guard await !context.needsPrompt(for: current, operation: .useItem) else {
            throw VaultError(.interactionNotAllowed, """
                \(existing.name) is protected (\(current)); it is kept as it is: replacing it needs that \
                access control first, and nothing was written
                """)
        }
        // Proves it: an application password set on the context is checked here, not assumed.
        _ = try await unlockItemKey(existing, operation: .useItem, prompt: "Replace \(existing.name)", context: context)
        return current
    }
}
