/// One at a time, in the order of arrival: the one way Sesame takes turns
/// (one prompt on the one reader, one count of an attempt, one CTAP request).
///
/// An actor alone is not enough: it re-enters at every `await`, so two
/// verifications interleaved around a store's load and save would each
/// count from the same history, and two prompts would race for one
/// fingerprint reader or one terminal. A turn is held from the start of
/// `work` to its end, across its awaits.
package actor TurnQueue {
    /// The next ticket to hand out, and the ticket whose turn it is.
    private var issued: UInt64 = 0
    private var serving: UInt64 = 0
    private var waiting: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    /// Tickets whose callers left before their turn: skipped when it comes.
    private var abandoned: Set<UInt64> = []
    /// Work that later calls with the same key join instead of queueing
    /// again: a `Task<Value, Never>` under its key.
    private var joinable: [String: any Sendable] = [:]

    package init() {}

    /// Runs `work` in the caller's task once every earlier turn has ended.
    ///
    /// Cancelling the caller while it waits leaves the queue at once and
    /// `work` never runs; cancelling it during `work` reaches `work` (a
    /// CTAPHID CANCEL stops the scan).
    ///
    /// - Returns: What `work` returned; `nil` when the caller was cancelled
    ///   before its turn came.
    package func run<Value: Sendable, Failure: Error>(
        _ work: @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value? {
        let ticket = take()
        guard await wait(for: ticket) else { return nil }
        defer { pass() }
        return try await work()
    }

    /// Runs `work` in a task of its own once every earlier turn has ended,
    /// or joins the call for `key` still running: two taps on "Pay" give
    /// one prompt and one result. Cancelling a caller neither skips nor
    /// interrupts `work`: an attempt once begun is counted to its end.
    ///
    /// - Parameters:
    ///   - key: Calls with equal keys share one run; `nil` never joins.
    ///   - work: The turn's work.
    /// - Returns: What `work` returned, for this call or the one it joined.
    package func run<Value: Sendable>(joining key: String?, _ work: @escaping @Sendable () async -> Value) async -> Value {
        if let key, let running = joinable[key] as? Task<Value, Never> { return await running.value }
        // The ticket is taken now, on the actor, so turns keep the order of the calls.
        let ticket = take()
        let task = Task {
            _ = await self.wait(for: ticket, cancellable: false)
            let value = await work()
            // Unjoinable from the moment it ends, on the actor: a call made
            // after the prompt was answered asks again, never reusing an
            // answer given before it was made.
            if let key { self.joinable[key] = nil }
            self.pass()
            return value
        }
        if let key { joinable[key] = task }
        return await task.value
    }

    private func take() -> UInt64 {
        defer { issued += 1 }
        return issued
    }

    /// `true` once it is `ticket`'s turn; `false` when the caller was
    /// cancelled first (its ticket is then skipped).
    private func wait(for ticket: UInt64, cancellable: Bool = true) async -> Bool {
        guard ticket != serving else { return true }
        guard cancellable else {
            return await withCheckedContinuation { waiting[ticket] = $0 }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { waiting[ticket] = $0 }
        } onCancel: {
            Task { await self.leave(ticket) }
        }
    }

    private func leave(_ ticket: UInt64) {
        guard let continuation = waiting.removeValue(forKey: ticket) else { return }
        abandoned.insert(ticket)
        continuation.resume(returning: false)
    }

    private func pass() {
        serving += 1
        while abandoned.remove(serving) != nil { serving += 1 }
        waiting.removeValue(forKey: serving)?.resume(returning: true)
    }
}
