import GRDB

/// Typed reads of a row that report an edited file instead of crashing:
/// GRDB's `row[name] as T?` traps when a value cannot be converted (a text
/// where a number belongs), and anyone who can write the vault file could
/// then crash every reader.
struct RowColumns {
    let row: Row
    /// What to call a bad value, e.g. `VaultError(.tampered, …)`.
    let failure: (String) -> VaultError

    func value<Value: DatabaseValueConvertible>(_ name: String, as type: Value.Type = Value.self) throws(VaultError) -> Value {
        guard let stored = row[name] as DatabaseValue?, !stored.isNull, let value = Value.fromDatabaseValue(stored) else {
            throw failure(name)
        }
        return value
    }

    func optional<Value: DatabaseValueConvertible>(_ name: String, as type: Value.Type = Value.self) throws(VaultError) -> Value? {
        guard let stored = row[name] as DatabaseValue? else { throw failure(name) }
        if stored.isNull { return nil }
        guard let value = Value.fromDatabaseValue(stored) else { throw failure(name) }
        return value
    }
}
