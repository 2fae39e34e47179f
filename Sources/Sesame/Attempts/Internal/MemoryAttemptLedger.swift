/// An attempt ledger that lives as long as one process: for secrets that
/// only exist in that process's memory (the ssh-agent's lock passphrase), so
/// the count needs no file and dies with the secret it protects.
package struct MemoryAttemptLedger: AttemptLedger {
    private let counter = Locked(AttemptCounter())

    package init() {}

    package func update<Value: Sendable>(_ change: @escaping @Sendable (inout AttemptCounter) -> Value) async throws -> Value {
        counter.withLock { change(&$0) }
    }
}
