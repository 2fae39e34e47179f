#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One evaluation's work: the rules of SPEC A applied to the backends.
///
/// Made per call from a snapshot of the context's settings, so changing a
/// setting mid-evaluation does not change the running one.
struct Evaluation: Sendable {
    struct Settings: Sendable {
        var reason: String
        var reuseDuration: TimeInterval
        var cancelTitle: String
        /// Empty means hidden (SPEC A5).
        var fallbackTitle: String
        var interactionNotAllowed: Bool
        /// Why nobody could be asked, when that is why interaction is not allowed.
        var nobodyToAsk: String? = nil

        /// `notInteractive`, saying why when nobody could be asked: a
        /// refusal nobody saw is not the owner's Cancel.
        var notInteractive: AuthenticationError {
            AuthenticationError(.notInteractive, reason: nobodyToAsk.map { UnavailableReason(.nobodyToAsk, "nobody could be asked: \($0)") })
        }
    }

    let context: AuthenticationContext
    let settings: Settings
    let prompt: EvaluationPrompt

    init(context: AuthenticationContext, settings: Settings) {
        self.context = context
        self.settings = settings
        prompt = EvaluationPrompt(
            presenter: context.authenticators.presenter,
            appName: context.authenticators.appName,
            settings: settings
        )
    }

    var authenticators: Authenticators { context.authenticators }

    // MARK: Policies

    func check(_ policy: AuthenticationPolicy) async throws(AuthenticationError) {
        switch policy {
        case .biometrics:
            _ = try await checkBiometrics()
        case .deviceOwner:
            do {
                _ = try await checkBiometrics()
            } catch {
                // Biometrics unusable: the device passcode must carry the policy alone.
                try await checkDevicePasscode()
            }
        case .appPasscode:
            try await checkAppPasscode()
        }
    }

    func run(_ policy: AuthenticationPolicy) async throws(AuthenticationError) {
        do throws(AuthenticationError) {
            switch policy {
            case .biometrics:
                if try await biometricPrompt(fallback: settings.fallbackTitle) == .fallbackChosen {
                    throw AuthenticationError.userFallback
                }
            case .deviceOwner:
                try await deviceOwner()
            case .appPasscode:
                try await appPasscodePrompt()
            }
            await prompt.end(nil)
        } catch {
            await prompt.end(error)
            throw error
        }
    }

    /// Biometrics first, then the device passcode (SPEC A1, D1).
    func deviceOwner() async throws(AuthenticationError) {
        let biometricFailure: AuthenticationError
        do throws(AuthenticationError) {
            if try await biometricPrompt(fallback: settings.fallbackTitle) == .matched { return }
            biometricFailure = .userFallback
        } catch {
            switch error.code {
            case .authenticationFailed, .biometryLockout, .biometryNotAvailable, .biometryNotEnrolled:
                biometricFailure = error
            default:
                throw error
            }
        }
        do throws(AuthenticationError) {
            try await checkDevicePasscode()
        } catch {
            // A1: fails only when both fail. No passcode after failed scans is
            // a failed authentication; no passcode and no biometrics is passcodeNotSet.
            throw biometricFailure.code == .authenticationFailed ? biometricFailure : error
        }
        try await devicePasscodePrompt()
    }

    // MARK: Biometrics

    enum BiometricOutcome: Equatable {
        case matched
        case fallbackChosen
    }

    @discardableResult
    func checkBiometrics() async throws(AuthenticationError) -> BiometricSensorState {
        guard let sensor = authenticators.sensor else {
            context.remember(.unavailable(UnavailableReason(.noSensor, "No biometric sensor is configured")))
            throw .biometryNotAvailable(UnavailableReason(.noSensor, "No biometric sensor is configured"))
        }
        let state = await sensor.currentState()
        context.remember(state)
        switch state.availability {
        case .ready: break
        case .notEnrolled: throw .biometryNotEnrolled
        case .lockedOut: throw .biometryLockout
        case .unavailable(let reason): throw .biometryNotAvailable(reason)
        }
        if try await readAttempts().biometricLockout { throw .biometryLockout }
        return state
    }

    /// One biometric prompt: up to three scans (SPEC A4), Cancel and the
    /// fallback button racing each scan, lockout after five consecutive
    /// failures, and the reuse window (SPEC A6).
    func biometricPrompt(fallback fallbackTitle: String) async throws(AuthenticationError) -> BiometricOutcome {
        let state = try await checkBiometrics()
        if try await withinReuseWindow(state.domainState) { return .matched }
        guard !settings.interactionNotAllowed else { throw settings.notInteractive }
        try checkCancellation()
        guard let sensor = authenticators.sensor else { throw .biometryNotAvailable }

        await prompt.begin(.biometrics)
        let claim: any BiometricClaim
        do throws(BiometricSensorError) {
            claim = try await sensor.claim()
        } catch {
            throw map(error)
        }
        let outcome: Result<BiometricOutcome, AuthenticationError>
        do throws(AuthenticationError) {
            outcome = .success(try await scanLoop(claim, domainState: state.domainState, fallbackTitle: fallbackTitle))
        } catch {
            outcome = .failure(error)
        }
        // Always released: on success, failure, cancellation and invalidate().
        await claim.release()
        return try outcome.get()
    }

    private func scanLoop(
        _ claim: any BiometricClaim,
        domainState: DomainState?,
        fallbackTitle: String
    ) async throws(AuthenticationError) -> BiometricOutcome {
        var failures = 0
        var fallbackOffered = false
        while true {
            try checkCancellation()
            switch await ScanRace.run(claim: claim, prompt: prompt, acceptsFallback: !fallbackTitle.isEmpty) {
            case .scanned(.match):
                try await recordBiometricSuccess(domainState)
                return .matched
            case .scanned(.noMatch):
                failures += 1
                let record = try await recordBiometricFailure()
                if record.biometricLockout { throw .biometryLockout }
                if failures >= AuthenticationContext.failuresPerPrompt { throw .authenticationFailed }
                await prompt.show(.notRecognized(attemptsLeft: AuthenticationContext.failuresPerPrompt - failures))
                if !fallbackOffered && !fallbackTitle.isEmpty {
                    fallbackOffered = true
                    await prompt.show(.fallbackOffered(title: fallbackTitle))
                }
            case .pressed(.cancel):
                throw .userCancel
            case .pressed(.fallback):
                return .fallbackChosen
            case .failed(.userFallback):
                return .fallbackChosen
            case .failed(let error):
                throw map(error)
            }
        }
    }

    private func map(_ error: BiometricSensorError) -> AuthenticationError {
        switch error {
        case .unavailable(let reason): .biometryNotAvailable(reason)
        case .notEnrolled: .biometryNotEnrolled
        case .lockedOut: .biometryLockout
        case .cancelled: .appCancel
        case .systemCancel: Task.isCancelled ? .appCancel : .systemCancel
        case .userCancel: .userCancel
        case .userFallback: .userFallback
        }
    }

    // MARK: Attempt history

    func readAttempts() async throws(AuthenticationError) -> AttemptRecord {
        do {
            return try await authenticators.attempts.read()
        } catch {
            throw .biometryNotAvailable(UnavailableReason(.stateUnavailable, "Sesame's attempt records cannot be read: \(error)"))
        }
    }

    func updateAttempts(_ change: @escaping @Sendable (inout AttemptRecord) -> Void) async throws(AuthenticationError) -> AttemptRecord {
        do {
            return try await authenticators.attempts.update(change)
        } catch {
            throw .biometryNotAvailable(UnavailableReason(.stateUnavailable, "Sesame's attempt records cannot be written: \(error)"))
        }
    }

    func withinReuseWindow(_ domainState: DomainState?) async throws(AuthenticationError) -> Bool {
        guard settings.reuseDuration > 0 else { return false }
        // A lock ends the window (SPEC D14): a process that missed the
        // signal still sees the session locked now, and ends it for all.
        if let monitor = authenticators.sessionLock, await monitor.state().isLocked {
            await authenticators.endReuseWindow()
            return false
        }
        let last: ReuseWindowEntry
        if let store = authenticators.reuseWindow {
            // A store that cannot be read (keyctl blocked, a damaged token)
            // only costs a prompt: fail closed, never open.
            guard let entry = try? await store.lastSuccess() else { return false }
            last = entry
        } else {
            let record = try await readAttempts()
            guard let success = record.lastBiometricSuccess else { return false }
            last = ReuseWindowEntry(elapsed: authenticators.clock.now().timeIntervalSince(success),
                                    domainState: record.lastBiometricSuccessDomainState)
        }
        // A clock set back (elapsed < 0) must not extend the window: fail closed.
        guard last.elapsed >= 0, last.elapsed <= settings.reuseDuration else { return false }
        return last.domainState == domainState
    }

    private func recordBiometricSuccess(_ domainState: DomainState?) async throws(AuthenticationError) {
        let now = authenticators.clock.now()
        let store = authenticators.reuseWindow
        let inRecord = store == nil
        _ = try await updateAttempts { record in
            record.consecutiveBiometricFailures = 0
            // With a separate store the success is kept there only, so the
            // attempt record (often a file) never outlives the window.
            record.lastBiometricSuccess = inRecord ? now : nil
            record.lastBiometricSuccessDomainState = inRecord ? domainState : nil
        }
        // The scan matched whatever happens here; a success not kept only
        // means the next evaluation prompts.
        try? await store?.recordSuccess(domainState: domainState)
        await authenticators.sessionLock?.recordOwnerAuthentication()
    }

    private func recordBiometricFailure() async throws(AuthenticationError) -> AttemptRecord {
        try await updateAttempts { record in
            record.consecutiveBiometricFailures += 1
            if record.consecutiveBiometricFailures >= AuthenticationContext.failuresBeforeLockout {
                record.biometricLockout = true
            }
        }
    }

    func checkCancellation() throws(AuthenticationError) {
        if Task.isCancelled { throw .appCancel }
    }
}

extension AuthenticationContext {
    /// Keeps what a sensor reported, for ``biometryType`` and ``domainState``.
    func remember(_ state: BiometricSensorState) {
        shared.withLock { context in
            context.biometryType = state.biometryType
            context.domainState = state.domainState
        }
    }
}
