#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The device passcode and the app passcode (SPEC A1, A4, E3).
extension Evaluation {
    /// Wrong entries that end one passcode prompt.
    static let passcodeAttemptsPerPrompt = 3

    func checkDevicePasscode() async throws(AuthenticationError) {
        guard let verifier = authenticators.devicePasscode else {
            throw AuthenticationError(.passcodeNotSet, reason: UnavailableReason(.notConfigured, "No device passcode verifier is configured"))
        }
        if case .notSet(let reason) = await verifier.currentState() {
            throw AuthenticationError(.passcodeNotSet, reason: reason)
        }
    }

    func checkAppPasscode() async throws(AuthenticationError) {
        guard let verifier = authenticators.appPasscode else {
            throw AuthenticationError(.passcodeNotSet, reason: UnavailableReason(.notConfigured, "No app passcode is configured"))
        }
        if case .notSet(let reason) = await verifier.currentState() {
            throw AuthenticationError(.passcodeNotSet, reason: reason)
        }
    }

    /// The device passcode; success clears the biometric lockout (SPEC A4).
    ///
    /// Every entry goes through the attempt gate (SPEC E5): counted before
    /// PAM checks it, refused without a prompt while Sesame's back-off runs
    /// (it replaces PAM's fixed delay, SPEC E3).
    func devicePasscodePrompt() async throws(AuthenticationError) {
        try await checkDevicePasscode()
        guard let verifier = authenticators.devicePasscode else { throw .passcodeNotSet }
        try requireInteraction()
        let conversation = PromptConversation(prompt: prompt, kind: .devicePasscode)
        let gate = AttemptGate(ledger: AttemptStoreLedger(store: authenticators.attempts), schedule: authenticators.backoff,
                               clock: authenticators.clock)
        try await passcodeAttempts { () async throws(AuthenticationError) -> PasscodeVerification in
            var unchecked = PasscodeVerification.cancelled
            let outcome = try await gate.attempt(ledgerFailure: Self.attemptRecordFailure) { () async throws(AuthenticationError) -> AttemptVerdict<Void> in
                await prompt.begin(.devicePasscode)
                let verification = await verifier.verify(using: conversation)
                switch verification {
                case .accepted: return .accepted(())
                case .rejected: return .rejected(fingerprint: nil)
                case .cancelled, .delayed, .unavailable:
                    unchecked = verification
                    return .notChecked
                }
            }
            switch outcome {
            case .accepted: return .accepted
            case .rejected(let until?), .refused(let until, _), .clockDisagrees(let until): return .delayed(until: until)
            case .checksInFlight(let count):
                return .unavailable(UnavailableReason(.stateUnavailable, "\(count) other device passcode checks did not finish; nothing was checked"))
            case .rejected(nil): return .rejected
            case .notChecked: return unchecked
            }
        }
        _ = try await updateAttempts { record in
            record.consecutiveBiometricFailures = 0
            record.biometricLockout = false
        }
        await authenticators.sensor?.devicePasscodeDidAuthenticate()
        // The owner proved who they are: `afterFirstUnlock` items open from now on (SPEC D14).
        await authenticators.sessionLock?.recordOwnerAuthentication()
    }

    static func attemptRecordFailure(_ error: any Error) -> AuthenticationError {
        .biometryNotAvailable(UnavailableReason(.stateUnavailable, "Sesame's attempt records cannot be written: \(error)"))
    }

    /// The app's own passcode, entered on the prompt.
    func appPasscodePrompt() async throws(AuthenticationError) {
        try await checkAppPasscode()
        guard let verifier = authenticators.appPasscode else { throw .passcodeNotSet }
        try requireInteraction()
        try await passcodeAttempts { () async throws(AuthenticationError) -> PasscodeVerification in
            let entry = await prompt.requestSecret(SecretRequest(kind: .appPasscode, prompt: "Enter the app passcode"))
            if case .notShown(let why) = entry { throw Self.nobodyAsked(why) }
            guard case .entered(let passcode) = entry else { return .cancelled }
            return await verifier.verify(passcode)
        }
    }

    /// A prompt that could not be shown: `notInteractive`, saying nobody
    /// could be asked and why, never the owner's Cancel.
    static func nobodyAsked(_ why: String) -> AuthenticationError {
        AuthenticationError(.notInteractive, reason: UnavailableReason(.nobodyToAsk, "nobody could be asked: \(why)"))
    }

    func requireInteraction() throws(AuthenticationError) {
        if settings.interactionNotAllowed || !prompt.canAskForSecrets { throw settings.notInteractive }
        try checkCancellation()
    }

    /// Up to three entries; each wrong one is announced with the attempts left.
    private func passcodeAttempts(_ attempt: () async throws(AuthenticationError) -> PasscodeVerification) async throws(AuthenticationError) {
        for number in 1...Self.passcodeAttemptsPerPrompt {
            try checkCancellation()
            switch try await attempt() {
            case .accepted:
                return
            case .rejected:
                if number < Self.passcodeAttemptsPerPrompt {
                    await prompt.show(.wrongPasscode(attemptsLeft: Self.passcodeAttemptsPerPrompt - number))
                }
            case .cancelled:
                throw Task.isCancelled ? .appCancel : .userCancel
            case .delayed(let until):
                throw AuthenticationError(.authenticationFailed, retryAfter: until)
            case .unavailable(let reason) where reason.kind == .nobodyToAsk:
                // The password prompt could not be shown: nobody was asked.
                throw AuthenticationError(.notInteractive, reason: reason)
            case .unavailable(let reason):
                throw AuthenticationError(.passcodeNotSet, reason: reason)
            }
        }
        throw .authenticationFailed
    }
}
