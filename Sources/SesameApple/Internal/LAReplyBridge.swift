import Sesame

/// Turns an `LAContext` reply, which arrives on LocalAuthentication's private
/// background queue, into an `async` result.
///
/// The reply does nothing but resume a continuation: no UI work, no
/// `canEvaluatePolicy` (Apple warns that calling it from the reply can
/// deadlock). Callers that need the main actor hop there themselves, as
/// `AuthenticationContext`'s completion-handler APIs do (SPEC A13).
package enum LAReplyBridge {
    /// Starts an evaluation and waits for its reply. Cancelling the calling
    /// task invalidates the context, which ends the evaluation with `appCancel`.
    ///
    /// - Parameters:
    ///   - context: The context the evaluation runs on.
    ///   - start: Starts the evaluation, passing the reply through.
    /// - Returns: Success, or the LAError the reply carried.
    package static func run(
        _ context: any LAContextProtocol,
        _ start: @Sendable (any LAContextProtocol, @escaping LAReply) -> Void
    ) async -> Result<Void, LAFailure> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, LAFailure>, Never>) in
                // A framework that replied twice would trap a checked
                // continuation; the first answer wins.
                let resumed = Locked(false)
                start(context) { success, failure in
                    let first = resumed.withLock { done in
                        defer { done = true }
                        return !done
                    }
                    guard first else { return }
                    continuation.resume(returning: success
                        ? .success(())
                        : .failure(failure ?? LAFailure(rawCode: LAErrorCode.authenticationFailed.rawValue, message: "no error given")))
                }
            }
        } onCancel: {
            context.invalidate()
        }
    }
}
