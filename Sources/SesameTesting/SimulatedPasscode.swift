import Sesame

/// A device or app passcode for tests, kept only in memory (as wiped-on-release
/// `SecretBytes`) and compared in constant time.
///
/// As a `DevicePasscodeVerifier` it asks for the passcode through the
/// conversation, as PAM does; as an `AppPasscodeVerifier` it checks
/// what the prompt collected.
public final class SimulatedPasscode: DevicePasscodeVerifier, AppPasscodeVerifier {
    private struct State {
        var passcode: SecretBytes?
        var verifications = 0
        var outage: UnavailableReason?
    }

    private let state: Locked<State>

    /// Creates a passcode.
    ///
    /// - Parameter passcode: The passcode, or `nil` for "no passcode set".
    public init(_ passcode: String? = nil) {
        state = Locked(State(passcode: passcode.map { SecretBytes(utf8: $0) }))
    }

    /// Sets or removes the passcode.
    ///
    /// - Parameter passcode: The new passcode, or `nil` to remove it.
    public func set(_ passcode: String?) {
        state.withLock { $0.passcode = passcode.map { SecretBytes(utf8: $0) } }
    }

    /// Makes the verifier fail as a misconfigured backend does.
    ///
    /// - Parameter reason: Why it is unusable, or `nil` to restore it.
    public func setOutage(_ reason: UnavailableReason?) {
        state.withLock { $0.outage = reason }
    }

    /// How many passcodes were checked.
    public var verifications: Int { state.withLock { $0.verifications } }

    public func currentState() async -> PasscodeState {
        state.withLock { state in
            if let outage = state.outage { return .notSet(outage) }
            return state.passcode == nil ? .notSet(UnavailableReason(.notConfigured, "No passcode is set")) : .set
        }
    }

    public func verify(using conversation: any PasscodeConversation) async -> PasscodeVerification {
        switch await conversation.requestSecret(prompt: "Passcode: ", echo: false) {
        case .cancelled: .cancelled
        case .notShown(let why): .unavailable(UnavailableReason(.nobodyToAsk, "nobody could be asked: \(why)"))
        case .entered(let entered): await verify(entered)
        }
    }

    public func verify(_ passcode: SecretBytes) async -> PasscodeVerification {
        state.withLock { state in
            if let outage = state.outage { return .unavailable(outage) }
            guard let stored = state.passcode else {
                return .unavailable(UnavailableReason(.notConfigured, "No passcode is set"))
            }
            state.verifications += 1
            return stored.constantTimeEquals(passcode) ? .accepted : .rejected
        }
    }
}
