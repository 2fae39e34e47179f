/// Runs async work one piece at a time, in call order. An actor alone is not
/// enough: it re-enters at every `await`, and two verifications interleaved
/// around the store's load and save would each count from the same history.
actor SerialGate {
    private var tail: Task<Void, Never>?

    func run<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) async -> Value {
        let previous = tail
        let task = Task {
            await previous?.value
            return await work()
        }
        tail = Task { _ = await task.value }
        return await task.value
    }
}
