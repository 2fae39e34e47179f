import Sesame

/// One claimed `LAContext`: each scan is one system biometric evaluation.
final class LocalAuthenticationSession: BiometricSession {
    private let context: any LAContextProtocol
    private let localizedReason: String
    private let onEnd: @Sendable () -> Void
    private let ended = Locked(false)

    init(context: any LAContextProtocol, localizedReason: String, onEnd: @escaping @Sendable () -> Void) {
        self.context = context
        self.localizedReason = localizedReason
        self.onEnd = onEnd
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

    func end() async {
        let first = ended.withLock { done in
            defer { done = true }
            return !done
        }
        if first { onEnd() }
    }
}
