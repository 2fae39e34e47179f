#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Sesame

/// A device's LocalAuthentication, simulated for Linux tests of SesameApple,
/// following Apple's documented behaviour:
///
/// - replies arrive on a background `DispatchQueue` ("a private queue internal
///   to the framework"), never on the caller's thread;
/// - errors carry `LAError.Code` raw values (-1 … -14, -1004);
/// - 5 consecutive biometric failures lock biometrics out (`-8`) until the
///   device passcode succeeds under `deviceOwnerAuthentication`;
/// - `touchIDAuthenticationAllowableReuseDuration` (clamped to 300 s) lets a
///   recent biometric success through without a prompt;
/// - an enrolment change changes `evaluatedPolicyDomainState` and tells
///   ``SimulatedKeychain`` to delete `biometryCurrentSet` items.
///
/// Policies and codes are raw `Int`s so that this module needs no dependency
/// on SesameApple; the tests adapt a ``SimulatedLAContext`` to SesameApple's
/// `LAContextProtocol`.
///
/// Limits: one scripted outcome is one system prompt attempt (Apple's sheet
/// may take several presentations before replying); no UI, no watch or
/// companion, no `isCredentialSet`, accessibility classes are recorded but
/// not enforced.
public final class SimulatedLocalAuthentication: Sendable {
    /// The sensor kind, with `LABiometryType` raw values.
    public enum Biometry: Int, Sendable {
        case none = 0
        case touchID = 1
        case faceID = 2
        case opticID = 4
    }

    /// What the user does at the next system prompt.
    public enum Outcome: Sendable, Equatable {
        /// The biometric matches.
        case match
        /// The biometric does not match.
        case noMatch
        /// The user presses Cancel.
        case userCancel
        /// The user presses the fallback button.
        case userFallback
        /// The system takes the prompt away.
        case systemCancel
        /// The device passcode, right or wrong.
        case passcode(accepted: Bool)
        /// The prompt stays up until the context is invalidated.
        case hold
        /// The evaluation fails with this raw `LAError.Code`.
        case error(Int)
    }

    struct State {
        var biometry: Biometry
        var enrolled: [String]
        var passcodeSet: Bool
        var generation = 0
        var failures = 0
        var lockedOut = false
        var lastBiometricSuccess: Date?
        var script: [Outcome] = []
        var evaluations = 0
        var enrolmentObservers: [@Sendable () -> Void] = []
    }

    /// `LAPolicy.deviceOwnerAuthenticationWithBiometrics`.
    public static let biometricsPolicy = 1
    /// `LAPolicy.deviceOwnerAuthentication`.
    public static let deviceOwnerPolicy = 2
    /// Consecutive failures before lockout.
    public static let failuresBeforeLockout = 5

    let state: Locked<State>
    let clock: any AuthenticationClock
    /// The queue replies arrive on (background, like LocalAuthentication's private queue).
    public let replyQueue = DispatchQueue(label: "SesameTesting.SimulatedLocalAuthentication.reply")

    /// Creates a device.
    ///
    /// - Parameters:
    ///   - biometry: The sensor kind.
    ///   - enrolled: Names of enrolled fingers or faces.
    ///   - passcodeSet: Whether a device passcode is set (biometrics needs one).
    ///   - clock: The clock for the reuse window.
    public init(
        biometry: Biometry = .touchID,
        enrolled: [String] = ["right-index-finger"],
        passcodeSet: Bool = true,
        clock: any AuthenticationClock = SystemClock()
    ) {
        state = Locked(State(biometry: biometry, enrolled: enrolled, passcodeSet: passcodeSet))
        self.clock = clock
    }

    /// Makes a context, as `LAContext()` does.
    ///
    /// - Returns: A fresh context on this device.
    public func makeContext() -> SimulatedLAContext { SimulatedLAContext(device: self) }

    /// Queues what the user does at the next prompts, in order. With nothing
    /// queued, a prompt ends with `systemCancel` (-4) rather than hanging.
    ///
    /// - Parameter outcomes: The outcomes.
    public func script(_ outcomes: Outcome...) {
        state.withLock { $0.script.append(contentsOf: outcomes) }
    }

    /// Adds or removes enrolled biometrics; changes the domain state and
    /// deletes `biometryCurrentSet` keychain items, as Apple does.
    ///
    /// - Parameter enrolled: The new enrolment.
    public func setEnrolled(_ enrolled: [String]) {
        let observers = state.withLock { state in
            state.enrolled = enrolled
            state.generation += 1
            return state.enrolmentObservers
        }
        for observer in observers { observer() }
    }

    /// Sets or removes the device passcode.
    ///
    /// - Parameter isSet: Whether a passcode is set.
    public func setPasscode(_ isSet: Bool) { state.withLock { $0.passcodeSet = isSet } }

    /// Whether biometrics is locked out.
    public var isLockedOut: Bool { state.withLock { $0.lockedOut } }
    /// How many prompts were shown.
    public var evaluations: Int { state.withLock { $0.evaluations } }
    /// The current enrolment's domain state; `nil` without enrolment.
    public var domainState: Data? { state.withLock { Self.domainState($0) } }

    func observeEnrolment(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.enrolmentObservers.append(observer) }
    }

    static func domainState(_ state: State) -> Data? {
        guard state.biometry != .none, !state.enrolled.isEmpty else { return nil }
        return Data("sim-\(state.biometry.rawValue)-\(state.generation)-\(state.enrolled.sorted().joined(separator: ","))".utf8)
    }

    /// The `LAError` raw code `canEvaluatePolicy` reports, or `nil`.
    func preflight(_ policy: Int) -> Int? {
        state.withLock { state in
            switch policy {
            case Self.biometricsPolicy:
                if state.biometry == .none { return -6 }
                if !state.passcodeSet { return -5 }
                if state.enrolled.isEmpty { return -7 }
                if state.lockedOut { return -8 }
                return nil
            case Self.deviceOwnerPolicy:
                return state.passcodeSet ? nil : -5
            default:
                return -6
            }
        }
    }

    /// Runs one prompt's worth of scripted outcomes.
    ///
    /// - Returns: `.some(nil)` on success, `.some(code)` on failure, `nil` to hold.
    func runPrompt(_ policy: Int, reuse: TimeInterval) -> Int?? {
        let now = clock.now()
        return state.withLock { state -> Int?? in
            state.evaluations += 1
            let window = min(max(reuse, 0), 300)
            if window > 0, let last = state.lastBiometricSuccess, now.timeIntervalSince(last) <= window, !state.lockedOut {
                return .some(nil)
            }
            var passcodeStage = policy == Self.deviceOwnerPolicy
                && (state.lockedOut || state.enrolled.isEmpty || state.biometry == .none)
            while true {
                guard !state.script.isEmpty else { return .some(-4) }
                let outcome = state.script.removeFirst()
                switch outcome {
                case .hold: return nil
                case .userCancel: return .some(-2)
                case .systemCancel: return .some(-4)
                case .error(let code): return .some(code)
                case .match where !passcodeStage:
                    state.failures = 0
                    state.lastBiometricSuccess = now
                    return .some(nil)
                case .noMatch where !passcodeStage:
                    state.failures += 1
                    if state.failures >= Self.failuresBeforeLockout { state.lockedOut = true }
                    if policy == Self.biometricsPolicy { return .some(-1) }
                    if state.lockedOut { passcodeStage = true }
                case .userFallback:
                    if policy == Self.biometricsPolicy { return .some(-3) }
                    passcodeStage = true
                case .passcode(let accepted) where policy == Self.deviceOwnerPolicy:
                    guard accepted else { return .some(-1) }
                    state.failures = 0
                    state.lockedOut = false
                    return .some(nil)
                case .match, .noMatch, .passcode:
                    // An outcome the current sheet cannot produce: a script error.
                    return .some(-4)
                }
            }
        }
    }
}
