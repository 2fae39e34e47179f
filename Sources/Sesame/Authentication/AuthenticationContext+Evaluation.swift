extension AuthenticationContext {
    /// Whether `policy` can be evaluated now (SPEC A2). Never prompts.
    ///
    /// Also learns ``biometryType`` and ``domainState``.
    ///
    /// - Parameter policy: The policy to check.
    /// - Throws: ``AuthenticationError`` with `passcodeNotSet`,
    ///   `biometryNotAvailable` (with the reason), `biometryNotEnrolled`,
    ///   `biometryLockout`, or `invalidContext`.
    public func canEvaluate(_ policy: AuthenticationPolicy) async throws(AuthenticationError) {
        let evaluation = try makeEvaluation(reason: "")
        try await evaluation.check(policy)
    }

    /// Authenticates the owner for `policy` (SPEC A1, A3–A6, A10).
    ///
    /// Succeeds at once without a prompt inside the reuse window. Cancel the
    /// calling task or call ``invalidate()`` to stop it with `appCancel`.
    ///
    /// - Parameters:
    ///   - policy: What must be proved.
    ///   - localizedReason: Why the app asks, shown on the prompt.
    /// - Throws: ``AuthenticationError``, exactly one code per failure.
    public func evaluate(_ policy: AuthenticationPolicy, localizedReason: String) async throws(AuthenticationError) {
        let evaluation = try makeEvaluation(reason: localizedReason)
        try await runCancellable { () async throws(AuthenticationError) in
            try await evaluation.run(policy)
        }
    }

    /// Authenticates ahead of time for an item's access control (SPEC A12).
    ///
    /// Store operations given this context then skip their own prompt
    /// (SPEC D3). Without user factors (only `privateKeyUsage`) it succeeds
    /// at once.
    ///
    /// - Parameters:
    ///   - accessControl: The item's access control.
    ///   - operation: The operation the authorisation is for.
    ///   - localizedReason: Why the app asks, shown on the prompt.
    /// - Throws: ``AuthenticationError``, as ``evaluate(_:localizedReason:)``.
    public func evaluateAccessControl(
        _ accessControl: AccessControl,
        operation: AccessControlOperation,
        localizedReason: String
    ) async throws(AuthenticationError) {
        let evaluation = try makeEvaluation(reason: localizedReason)
        let authorization = try await runCancellable { () async throws(AuthenticationError) in
            try await evaluation.authorize(accessControl, for: operation)
        }
        shared.withLock { state in
            guard !state.isInvalidated else { return }
            state.authorizations.append(authorization)
        }
    }

    /// ``evaluateAccessControl(_:operation:localizedReason:)`` for several
    /// operations at once: one prompt authorises each of them. A passkey
    /// ceremony signs with a key and reads the key's `hmac-secret` item after
    /// one verification of the owner (SPEC P1), never two.
    ///
    /// - Parameters:
    ///   - accessControl: The access control of the items and keys to be used.
    ///   - operations: The operations the authorisation is for.
    ///   - localizedReason: Why the app asks, shown on the prompt.
    /// - Throws: ``AuthenticationError``, as ``evaluate(_:localizedReason:)``.
    public func evaluateAccessControl(
        _ accessControl: AccessControl,
        operations: Set<AccessControlOperation>,
        localizedReason: String
    ) async throws(AuthenticationError) {
        guard let first = operations.first else { return }
        let evaluation = try makeEvaluation(reason: localizedReason)
        let authorization = try await runCancellable { () async throws(AuthenticationError) in
            try await evaluation.authorize(accessControl, for: first)
        }
        shared.withLock { state in
            guard !state.isInvalidated else { return }
            for operation in operations {
                var each = authorization
                each.operation = operation
                state.authorizations.append(each)
            }
        }
    }

    /// Whether a store operation for `accessControl` would prompt on this
    /// context now: no authorisation ahead of time (SPEC A12) covers it,
    /// and neither the reuse window (SPEC A6) nor an application password
    /// set on the context satisfies it. Never prompts, never counts an
    /// attempt: only the sensor's state and the attempt record are read.
    /// An invalidated context always would (it can no longer authenticate).
    ///
    /// - Parameters:
    ///   - accessControl: The item's access control.
    ///   - operation: The operation about to run.
    /// - Returns: `true` when the operation would need the owner.
    package func needsPrompt(for accessControl: AccessControl, operation: AccessControlOperation) async -> Bool {
        if accessControl.userFactors.isEmpty { return false }
        if authorization(for: accessControl, operation: operation) != nil { return false }
        guard let evaluation = try? makeEvaluation(reason: "") else { return true }
        return await !evaluation.satisfiedWithoutPrompt(accessControl)
    }

    private func makeEvaluation(reason: String) throws(AuthenticationError) -> Evaluation {
        let settings = try shared.withLock { state throws(AuthenticationError) in
            guard !state.isInvalidated else { throw AuthenticationError.invalidContext }
            return Evaluation.Settings(
                reason: reason,
                reuseDuration: state.reuseDuration,
                cancelTitle: state.cancelTitle ?? "Cancel",
                fallbackTitle: state.fallbackTitle ?? "Enter Password",
                interactionNotAllowed: state.interactionNotAllowed,
                nobodyToAsk: state.nobodyToAsk
            )
        }
        return Evaluation(context: self, settings: settings)
    }

    /// Runs `body` in a task of its own that ``invalidate()`` can cancel from
    /// any thread; cancelling the caller cancels it too.
    private func runCancellable<Value: Sendable>(
        _ body: @escaping @Sendable () async throws(AuthenticationError) -> Value
    ) async throws(AuthenticationError) -> Value {
        let task = Task { () async -> Result<Value, AuthenticationError> in
            do throws(AuthenticationError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        let id: UInt64? = shared.withLock { state in
            guard !state.isInvalidated else { return nil }
            state.nextEvaluationID += 1
            state.running[state.nextEvaluationID] = task.cancel
            return state.nextEvaluationID
        }
        // invalidate() ran between makeEvaluation and here: cancel as it would have.
        if id == nil { task.cancel() }
        let lockedDuring = watchSessionLock(cancelling: task)
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        lockedDuring?.watcher.cancel()
        if let id { shared.withLock { _ = $0.running.removeValue(forKey: id) } }
        // The system took the prompt away, not the app and not the owner (SPEC A3, D14).
        if case .failure = result, let state = lockedDuring?.state.withLock({ $0 }) {
            throw AuthenticationError(.systemCancel, reason: UnavailableReason(.sessionLocked, "the session is \(state.summary)"))
        }
        return try result.get()
    }

    /// Cancels `task` when the session locks or the machine begins to sleep
    /// (SPEC D14); the state that did it is kept for the error.
    private func watchSessionLock<Value>(
        cancelling task: Task<Value, Never>
    ) -> (watcher: Task<Void, Never>, state: Locked<SessionLockState?>)? {
        guard let monitor = authenticators.sessionLock else { return nil }
        let seen = Locked<SessionLockState?>(nil)
        let authenticators = authenticators
        let watcher = Task {
            for await state in monitor.states() where state.endsGracePeriods {
                seen.withLock { $0 = state }
                task.cancel()
                await authenticators.endReuseWindow()
                return
            }
        }
        return (watcher, seen)
    }
}
