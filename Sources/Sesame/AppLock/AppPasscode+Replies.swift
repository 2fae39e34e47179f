/// Completion-handler variants for UI code: replies arrive on the main actor.
extension AppPasscode {
    /// A reply delivered on the main actor.
    public typealias Reply = @MainActor @Sendable (Result<Void, AppPasscodeError>) -> Void

    /// ``verify(_:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - passcode: What the owner entered.
    ///   - reply: Receives the outcome on the main actor.
    public func verify(_ passcode: SecretBytes, reply: @escaping @MainActor @Sendable (PasscodeVerification) -> Void) {
        Task {
            let outcome = await self.verify(passcode)
            await MainActor.run { reply(outcome) }
        }
    }

    /// ``set(_:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - passcode: The new passcode.
    ///   - reply: Receives the result on the main actor.
    public func set(_ passcode: SecretBytes, reply: @escaping Reply) {
        deliver(reply) { () async throws(AppPasscodeError) in try await self.set(passcode) }
    }

    /// ``change(from:to:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - current: The passcode now set.
    ///   - new: The new passcode.
    ///   - reply: Receives the result on the main actor.
    public func change(from current: SecretBytes, to new: SecretBytes, reply: @escaping Reply) {
        deliver(reply) { () async throws(AppPasscodeError) in try await self.change(from: current, to: new) }
    }

    /// ``remove(current:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - current: The passcode now set.
    ///   - reply: Receives the result on the main actor.
    public func remove(current: SecretBytes, reply: @escaping Reply) {
        deliver(reply) { () async throws(AppPasscodeError) in try await self.remove(current: current) }
    }

    /// ``reset(using:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - recovery: The app's proof of the owner.
    ///   - reply: Receives the result on the main actor.
    public func reset(using recovery: @escaping @Sendable () async -> Bool, reply: @escaping Reply) {
        deliver(reply) { () async throws(AppPasscodeError) in try await self.reset(using: recovery) }
    }

    private func deliver(_ reply: @escaping Reply, _ work: @escaping @Sendable () async throws(AppPasscodeError) -> Void) {
        Task {
            let result: Result<Void, AppPasscodeError>
            do throws(AppPasscodeError) {
                try await work()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            await MainActor.run { reply(result) }
        }
    }
}
