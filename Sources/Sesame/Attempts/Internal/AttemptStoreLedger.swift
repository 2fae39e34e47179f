/// The device passcode's attempt counter, kept in the ``AttemptStore``'s
/// passcode fields: the store's atomic update is the exclusive lock (a
/// flock for ``FileAttemptStore``, an SQLite write for ``VaultAttemptStore``).
struct AttemptStoreLedger: AttemptLedger {
    let store: any AttemptStore

    func update<Value: Sendable>(_ change: @escaping @Sendable (inout AttemptCounter) -> Value) async throws -> Value {
        let result = Locked<Value?>(nil)
        try await store.update { record in
            var counter = AttemptCounter(failures: record.consecutivePasscodeFailures, delay: record.passcodeDelay,
                                         inFlight: record.passcodeAttemptsInFlight)
            let value = change(&counter)
            record.consecutivePasscodeFailures = counter.failures
            record.passcodeDelay = counter.delay
            record.passcodeAttemptsInFlight = counter.inFlight
            result.withLock { $0 = value }
        }
        guard let value = result.withLock({ $0 }) else {
            throw AttemptStoreLedgerError()
        }
        return value
    }
}

/// The store returned without running the change: it cannot be trusted.
struct AttemptStoreLedgerError: Error, CustomStringConvertible {
    var description: String { "the attempt store did not apply the change" }
}
