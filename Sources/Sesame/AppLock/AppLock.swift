#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps the app covered until the owner unlocks (SPEC E1, E2): drives an
/// ``AppLockRules`` with an ``AuthenticationContext`` and the app passcode.
///
/// ```swift
/// let lock = AppLock(authenticators: authenticators, appPasscode: passcode, reason: "Unlock Notes")
/// Task { for await snapshot in lock.updates { await MainActor.run { cover.isHidden = !snapshot.isCovered } } }
/// await lock.handle(.launch)
/// // the pad: await lock.enterPasscode(entered)
/// ```
///
/// The method is chosen afresh on every launch and resume, because the owner
/// may have changed device settings meanwhile.
public actor AppLock {
    /// The rules and their current state, as a snapshot.
    public private(set) var rules: AppLockRules
    /// Every snapshot after a change, for the UI; the current one first.
    /// One consumer: iterate it from one task and hop to the main actor there.
    public nonisolated let updates: AsyncStream<AppLockRules>
    private let continuation: AsyncStream<AppLockRules>.Continuation
    private let authenticators: Authenticators
    private let appPasscode: (any AppPasscodeVerifier)?
    private let reason: String
    private var running: (context: AuthenticationContext, task: Task<Void, Never>)?

    /// Creates the lock, locked and covered.
    ///
    /// - Parameters:
    ///   - authenticators: The backends; biometrics and the device passcode are theirs.
    ///   - appPasscode: The app passcode the pad checks; `authenticators.appPasscode` by default.
    ///   - gracePeriod: Seconds in the background that need no unlock; 0 by default.
    ///   - reason: Shown on the prompts, e.g. "Unlock Notes".
    public init(authenticators: Authenticators, appPasscode: (any AppPasscodeVerifier)? = nil, gracePeriod: TimeInterval = 0, reason: String) {
        self.authenticators = authenticators
        self.appPasscode = appPasscode ?? authenticators.appPasscode
        self.reason = reason
        let rules = AppLockRules(gracePeriod: gracePeriod)
        self.rules = rules
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
        continuation.yield(rules)
    }

    deinit {
        running?.task.cancel()
        continuation.finish()
    }

    /// The current state.
    public var state: AppLockState { rules.state }

    /// Feeds a life-cycle or cover event: ``AppLockEvent/launch``,
    /// ``AppLockEvent/resume(at:)``, ``AppLockEvent/background(at:)``,
    /// ``AppLockEvent/ownerActedOnCover`` or ``AppLockEvent/cancel``.
    ///
    /// - Parameter event: What happened.
    public func handle(_ event: AppLockEvent) async {
        let effects = rules.handle(event)
        continuation.yield(rules)
        for effect in effects { await perform(effect) }
    }

    /// Checks a passcode typed on the pad, when the pad is showing.
    ///
    /// - Parameter passcode: What the owner entered.
    /// - Returns: The outcome; ``PasscodeVerification/cancelled`` when the pad is not showing.
    @discardableResult
    public func enterPasscode(_ passcode: SecretBytes) async -> PasscodeVerification {
        guard rules.state == .waitingForPasscode else { return .cancelled }
        guard let appPasscode else {
            await handle(.cancel)
            return .unavailable(UnavailableReason(.notConfigured, "No app passcode is configured"))
        }
        let verification = await appPasscode.verify(passcode)
        // The lock may have moved on (backgrounded) while scrypt ran.
        guard rules.state == .waitingForPasscode else { return verification }
        switch verification {
        case .accepted: await handle(.success)
        case .rejected: await handle(.failure)
        case .delayed(let until): await handle(.delayed(until: until))
        // Nothing more to try on the pad: leave the cover in place (SPEC E1).
        case .cancelled, .unavailable: await handle(.cancel)
        }
        return verification
    }

    private func perform(_ effect: AppLockEffect) async {
        switch effect {
        case .showCover, .hideCover, .showPasscodePad:
            // The UI follows `updates`.
            break
        case .cancelAuthentication:
            running?.context.invalidate()
            running?.task.cancel()
            running = nil
        case .chooseMethod:
            await handle(.methodChosen(await chooseMethod()))
        case .evaluate(let policy, let fallbackTitle):
            evaluate(policy, fallbackTitle: fallbackTitle)
        }
    }

    /// SPEC E2's inputs, read through the context (never prompts).
    private func chooseMethod() async -> AppLockMethod {
        let context = AuthenticationContext(authenticators)
        let biometrics = (try? await context.canEvaluate(.biometrics)) != nil
        // Sesame's device-owner policy is satisfied by biometrics alone; SPEC E2
        // means a device passcode behind it, as on iOS, so ask for that too.
        let devicePasscodeSet = await authenticators.devicePasscode?.currentState() == .set
        let deviceOwnerReady = (try? await context.canEvaluate(.deviceOwner)) != nil
        let deviceOwner = devicePasscodeSet && deviceOwnerReady
        let appPasscodeSet = (await appPasscode?.currentState()) == .set
        return AppLockMethod.choose(deviceOwnerAvailable: deviceOwner, biometricsAvailable: biometrics, appPasscodeSet: appPasscodeSet)
    }

    private func evaluate(_ policy: AuthenticationPolicy, fallbackTitle: String) {
        let context = AuthenticationContext(authenticators)
        context.fallbackTitle = fallbackTitle
        let reason = self.reason
        let task = Task {
            let event: AppLockEvent
            do throws(AuthenticationError) {
                try await context.evaluate(policy, localizedReason: reason)
                event = .success
            } catch {
                event = Self.event(for: error)
            }
            await self.finishEvaluation(of: context, with: event)
        }
        running = (context, task)
    }

    private func finishEvaluation(of context: AuthenticationContext, with event: AppLockEvent) async {
        // A cancelled or superseded check reports nothing.
        guard running?.context === context else { return }
        running = nil
        await handle(event)
    }

    private static func event(for error: AuthenticationError) -> AppLockEvent {
        switch error.code {
        case .userFallback: return .fallback
        case .userCancel, .appCancel, .systemCancel, .invalidContext: return .cancel
        default:
            if let until = error.retryAfter { return .delayed(until: until) }
            return .failure
        }
    }
}
