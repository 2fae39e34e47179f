import Sesame

/// The device passcode through LocalAuthentication, as a
/// `DevicePasscodeVerifier`.
///
/// LocalAuthentication has no passcode-only policy: the check runs
/// `evaluatePolicy(.deviceOwnerAuthentication)`, and the system may offer
/// biometrics before its passcode sheet. The system collects the passcode
/// itself, so the `PasscodeConversation` is never asked; Sesame
/// never sees the passcode.
public final class LocalAuthenticationPasscode: DevicePasscodeVerifier {
    let makeContext: @Sendable () -> any LAContextProtocol
    let localizedReason: String

    /// Creates a verifier over any `LAContext`-shaped factory.
    ///
    /// - Parameters:
    ///   - localizedReason: The reason the system prompt shows.
    ///   - makeContext: Makes a fresh context per check.
    package init(localizedReason: String, makeContext: @escaping @Sendable () -> any LAContextProtocol) {
        self.localizedReason = localizedReason
        self.makeContext = makeContext
    }

    public func currentState() async -> PasscodeState {
        let context = makeContext()
        defer { context.invalidate() }
        do throws(LAFailure) {
            try context.canEvaluatePolicy(.deviceOwnerAuthentication)
            return .set
        } catch {
            return LAErrorMapping.passcodeState(error)
        }
    }

    public func verify(using conversation: any PasscodeConversation) async -> PasscodeVerification {
        let context = makeContext()
        defer { context.invalidate() }
        let reason = localizedReason
        let result = await LAReplyBridge.run(context) { context, reply in
            context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason, reply: reply)
        }
        if Task.isCancelled { return .cancelled }
        switch result {
        case .success: return .accepted
        case .failure(let failure): return LAErrorMapping.passcodeVerification(failure)
        }
    }
}
