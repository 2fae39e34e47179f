/// Where one ``AttemptCounter`` is kept, behind an exclusive lock that every
/// process using the same record shares (SPEC E5).
///
/// Implementations: the vault's passcode slot (a row in the vault file,
/// changed in an SQLite write transaction), the app passcode record (its
/// store's atomic update), the device passcode (the ``AttemptStore``).
package protocol AttemptLedger: Sendable {
    /// Runs `change` on the counter while holding the lock, and stores the
    /// result durably before returning; no other process reads or writes the
    /// counter in between.
    ///
    /// - Parameter change: Edits the counter; returns what the caller needs.
    /// - Returns: What `change` returned.
    /// - Throws: When the record cannot be read, is not authentic, or cannot
    ///   be written. Callers fail closed: nothing is checked.
    func update<Value: Sendable>(_ change: @escaping @Sendable (inout AttemptCounter) -> Value) async throws -> Value
}
