/// Completion-handler variants for UI code: replies arrive on the main actor.
extension FeatureProtection {
    /// A reply delivered on the main actor.
    public typealias Reply = @MainActor @Sendable (Result<Void, FeatureProtectionError>) -> Void

    /// ``enable(_:policy:reason:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - feature: The feature.
    ///   - policy: How it will be unlocked.
    ///   - reply: Receives the result on the main actor.
    public func enable(_ feature: Feature, policy: FeatureProtectionPolicy = .biometrics, reply: @escaping Reply) {
        deliver(reply) { () async throws(FeatureProtectionError) in try await self.enable(feature, policy: policy) }
    }

    /// ``disable(_:reason:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - feature: The feature.
    ///   - reason: Shown on the prompt.
    ///   - reply: Receives the result on the main actor.
    public func disable(_ feature: Feature, reason: String, reply: @escaping Reply) {
        deliver(reply) { () async throws(FeatureProtectionError) in try await self.disable(feature, reason: reason) }
    }

    /// ``authenticate(_:reason:)`` with a reply on the main actor.
    ///
    /// - Parameters:
    ///   - feature: The feature.
    ///   - reason: Shown on the prompt.
    ///   - reply: Receives the result on the main actor.
    public func authenticate(_ feature: Feature, reason: String, reply: @escaping Reply) {
        deliver(reply) { () async throws(FeatureProtectionError) in try await self.authenticate(feature, reason: reason) }
    }

    private func deliver(_ reply: @escaping Reply, _ work: @escaping @Sendable () async throws(FeatureProtectionError) -> Void) {
        Task {
            let result: Result<Void, FeatureProtectionError>
            do throws(FeatureProtectionError) {
                try await work()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            await reply(result)
        }
    }
}
