/// Completion-handler variants for UI code: replies arrive on the main actor
/// (SPEC A13), as the original wrapper hopped to the main queue.
extension AuthenticationContext {
    /// A reply delivered on the main actor.
    public typealias Reply = @MainActor @Sendable (Result<Void, AuthenticationError>) -> Void

    /// ``canEvaluate(_:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - policy: The policy to check.
    ///   - reply: Receives the result on the main actor.
    public func canEvaluate(_ policy: AuthenticationPolicy, reply: @escaping Reply) {
        Task {
            let result: Result<Void, AuthenticationError>
            do throws(AuthenticationError) {
                result = .success(try await canEvaluate(policy))
            } catch {
                result = .failure(error)
            }
            await reply(result)
        }
    }

    /// ``evaluate(_:localizedReason:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - policy: What must be proved.
    ///   - localizedReason: Why the app asks.
    ///   - reply: Receives the result on the main actor.
    public func evaluate(_ policy: AuthenticationPolicy, localizedReason: String, reply: @escaping Reply) {
        Task {
            let result: Result<Void, AuthenticationError>
            do throws(AuthenticationError) {
                result = .success(try await evaluate(policy, localizedReason: localizedReason))
            } catch {
                result = .failure(error)
            }
            await reply(result)
        }
    }

    /// ``evaluateAccessControl(_:operation:localizedReason:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - accessControl: The item's access control.
    ///   - operation: The operation the authorisation is for.
    ///   - localizedReason: Why the app asks.
    ///   - reply: Receives the result on the main actor.
    public func evaluateAccessControl(
        _ accessControl: AccessControl,
        operation: AccessControlOperation,
        localizedReason: String,
        reply: @escaping Reply
    ) {
        Task {
            let result: Result<Void, AuthenticationError>
            do throws(AuthenticationError) {
                result = .success(try await evaluateAccessControl(accessControl, operation: operation, localizedReason: localizedReason))
            } catch {
                result = .failure(error)
            }
            await reply(result)
        }
    }
}
