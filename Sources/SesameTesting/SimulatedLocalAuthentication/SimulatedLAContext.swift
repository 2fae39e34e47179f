#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Sesame

/// One `LAContext` on a ``SimulatedLocalAuthentication`` device, with raw
/// `LAPolicy` and `LAError.Code` values.
public final class SimulatedLAContext: Sendable {
    /// A reply: success, or the raw `LAError.Code`.
    public typealias Reply = @Sendable (Bool, Int?) -> Void

    struct State {
        var reuseDuration: TimeInterval = 0
        var fallbackTitle: String?
        var cancelTitle: String?
        var interactionNotAllowed = false
        var invalidated = false
        var domainState: Data?
        var biometryType = 0
        var applicationPassword: Data?
        var authenticated = false
        /// The one `LAAccessControlOperation` an `evaluateAccessControl`
        /// authorised; `nil` after `evaluatePolicy`, which serves any.
        var operation: Int?
        var pending: Reply?
    }

    let device: SimulatedLocalAuthentication
    let state = Locked(State())

    init(device: SimulatedLocalAuthentication) {
        self.device = device
    }

    /// `canEvaluatePolicy(_:error:)`.
    ///
    /// - Parameter policy: The raw `LAPolicy`.
    /// - Returns: `nil` when it can be evaluated, else the raw `LAError.Code`.
    public func canEvaluatePolicy(_ policy: Int) -> Int? {
        if state.withLock({ $0.invalidated }) { return -10 }
        let code = device.preflight(policy)
        let (biometry, domain) = device.state.withLock { ($0.biometry.rawValue, SimulatedLocalAuthentication.domainState($0)) }
        state.withLock { state in
            state.biometryType = biometry
            if code == nil { state.domainState = domain }
        }
        return code
    }

    /// `evaluatePolicy(_:localizedReason:reply:)`: the reply comes on the device's background queue.
    ///
    /// - Parameters:
    ///   - policy: The raw `LAPolicy`.
    ///   - localizedReason: Shown in the (simulated) prompt.
    ///   - reply: Called once, on ``SimulatedLocalAuthentication/replyQueue``.
    public func evaluatePolicy(_ policy: Int, localizedReason: String, reply: @escaping Reply) {
        let queue = device.replyQueue
        if let code = canEvaluatePolicy(policy), !(policy == SimulatedLocalAuthentication.deviceOwnerPolicy && code == -8) {
            queue.async { reply(false, code) }
            return
        }
        let (reuse, notInteractive) = state.withLock { ($0.reuseDuration, $0.interactionNotAllowed) }
        if notInteractive {
            queue.async { reply(false, -1004) }
            return
        }
        guard let result = device.runPrompt(policy, reuse: reuse) else {
            // Held until invalidate() answers with appCancel.
            let invalidated = state.withLock { state -> Bool in
                if !state.invalidated { state.pending = reply }
                return state.invalidated
            }
            if invalidated { queue.async { reply(false, -9) } }
            return
        }
        if result == nil {
            let domain = device.domainState
            state.withLock {
                $0.authenticated = true
                $0.domainState = domain
            }
        }
        queue.async { reply(result == nil, result) }
    }

    /// `LAAccessControlOperation` raw values.
    public static let createItem = 0, useItem = 1, createKey = 2, useKeySign = 3, useKeyDecrypt = 4, useKeyKeyExchange = 5

    /// `evaluateAccessControl(_:operation:localizedReason:reply:)`, from the raw
    /// `SecAccessControlCreateFlags`: biometric flags run the biometrics
    /// policy, user presence and device passcode the device-owner policy; an
    /// application password alone needs no prompt. As on Apple, the context
    /// is then authorised for that operation only (SPEC D7).
    ///
    /// - Parameters:
    ///   - flags: The raw flags.
    ///   - operation: The raw `LAAccessControlOperation`; `nil` authorises any.
    ///   - localizedReason: Shown in the prompt.
    ///   - reply: Called once, on the device's background queue.
    public func evaluateAccessControl(flags: UInt, operation: Int? = nil, localizedReason: String, reply: @escaping Reply) {
        state.withLock { $0.operation = operation }
        switch SimulatedKeychain.requiredPolicy(flags) {
        case nil:
            state.withLock { $0.authenticated = true }
            device.replyQueue.async { reply(true, nil) }
        case let policy?:
            evaluatePolicy(policy, localizedReason: localizedReason, reply: reply)
        }
    }

    /// Whether an evaluation on this context succeeded and serves `operation`.
    ///
    /// - Parameter operation: The raw `LAAccessControlOperation` about to run.
    /// - Returns: `true` when no second prompt is needed.
    public func isAuthenticated(for operation: Int) -> Bool {
        state.withLock { $0.authenticated && !$0.invalidated && ($0.operation == nil || $0.operation == operation) }
    }

    /// `evaluatedPolicyDomainState`.
    public var evaluatedPolicyDomainState: Data? { state.withLock { $0.domainState } }
    /// `biometryType` as a raw `LABiometryType`, known after `canEvaluatePolicy`.
    public var biometryType: Int { state.withLock { $0.biometryType } }
    /// Whether an evaluation on this context succeeded (for the keychain).
    public var isAuthenticated: Bool { state.withLock { $0.authenticated && !$0.invalidated } }
    /// Whether ``invalidate()`` was called.
    public var isInvalidated: Bool { state.withLock { $0.invalidated } }

    /// `touchIDAuthenticationAllowableReuseDuration`; Apple caps it at 300 s.
    public var reuseDuration: TimeInterval {
        get { state.withLock { $0.reuseDuration } }
        set { state.withLock { $0.reuseDuration = min(max(newValue, 0), 300) } }
    }

    /// `localizedFallbackTitle`.
    public var fallbackTitle: String? {
        get { state.withLock { $0.fallbackTitle } }
        set { state.withLock { $0.fallbackTitle = newValue } }
    }

    /// `localizedCancelTitle`.
    public var cancelTitle: String? {
        get { state.withLock { $0.cancelTitle } }
        set { state.withLock { $0.cancelTitle = newValue } }
    }

    /// `interactionNotAllowed`.
    public var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// The application password set with ``setApplicationPassword(_:)``.
    public var applicationPassword: Data? { state.withLock { $0.invalidated ? nil : $0.applicationPassword } }

    /// `setCredential(_:type: .applicationPassword)`.
    ///
    /// - Parameter password: The password, or `nil` to clear.
    /// - Returns: `false` once invalidated.
    public func setApplicationPassword(_ password: Data?) -> Bool {
        state.withLock { state in
            guard !state.invalidated else { return false }
            state.applicationPassword = password
            return true
        }
    }

    /// `invalidate()`: a held prompt ends with `appCancel` (-9).
    public func invalidate() {
        let pending = state.withLock { state -> Reply? in
            state.invalidated = true
            defer { state.pending = nil }
            return state.pending
        }
        if let pending { device.replyQueue.async { pending(false, -9) } }
    }
}
