/// One prompt at a time: calls for the same key while one runs share its
/// result (two taps on "Pay" give one prompt); calls for other keys wait
/// their turn instead of opening a second prompt.
actor PromptGate {
    typealias Outcome = Result<Void, FeatureProtectionError>

    private var running: [String: Task<Outcome, Never>] = [:]
    private var tail: Task<Void, Never>?

    /// Runs `work` after every earlier call, or joins the call for `key` in flight.
    func run(key: String?, _ work: @escaping @Sendable () async -> Outcome) async -> Outcome {
        if let key, let inFlight = running[key] { return await inFlight.value }
        let previous = tail
        let task = Task {
            await previous?.value
            return await work()
        }
        tail = Task { _ = await task.value }
        if let key { running[key] = task }
        let outcome = await task.value
        if let key, running[key] == task { running[key] = nil }
        return outcome
    }
}
