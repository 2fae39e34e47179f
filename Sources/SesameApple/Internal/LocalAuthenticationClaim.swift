import Sesame

/// One claimed `LAContext`: each scan is one system biometric evaluation.
final class LocalAuthenticationClaim: BiometricClaim {
    private let context: any LAContextProtocol
    private let localizedReason: String
    private let onRelease: @Sendable () -> Void
    private let released = Locked(false)

    init(context: any LAContextProtocol, localizedReason: String, onRelease: @escaping @Sendable () -> Void) {
        self.context = context
        self.localizedReason = localizedReason
        self.onRelease = onRelease
    }

    func scan(hint: @escaping @Sendable (ScanHint) async -> Void) async throws(BiometricSensorError) -> ScanResult {
        // The system prompt shows its own hints; nothing reaches `hint`.
        let reason = localizedReason
        let result = await LAReplyBridge.run(context) { context, reply in
            context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason, reply: reply)
        }
        if Task.isCancelled { throw .cancelled }
        switch result {
        case .success:
            return .match
        case .failure(let failure):
            switch LAErrorMapping.scanOutcome(failure) {
            case .noMatch: return .noMatch
            case .error(let error): throw error
            }
        }
    }

    func release() async {
        let first = released.withLock { done in
            defer { done = true }
            return !done
        }
        if first { onRelease() }
    }
}
