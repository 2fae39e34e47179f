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
    func devicePasscodePrompt() async throws(AuthenticationError) {
        try await checkDevicePasscode()
        guard let verifier = authenticators.devicePasscode else { throw .passcodeNotSet }
        try requireInteraction()
        let conversation = PromptConversation(prompt: prompt, kind: .devicePasscode)
        try await passcodeAttempts { () async throws(AuthenticationError) -> PasscodeVerification in
            // Sesame's back-off replaces PAM's delay: no prompt while it runs (SPEC E3).
            if let end = try await devicePasscodeDelayEnd() { return .delayed(until: end) }
            await prompt.begin(.devicePasscode)
            let verification = await verifier.verify(using: conversation)
            if verification == .rejected, let end = try await recordDevicePasscodeFailure() {
                return .delayed(until: end)
            }
            return verification
        }
        _ = try await updateAttempts { record in
            record.consecutiveBiometricFailures = 0
            record.biometricLockout = false
            record.consecutivePasscodeFailures = 0
            record.passcodeDelay = nil
        }
        await authenticators.sensor?.devicePasscodeDidAuthenticate()
    }

    /// The app's own passcode, entered on the prompt.
    func appPasscodePrompt() async throws(AuthenticationError) {
        try await checkAppPasscode()
        guard let verifier = authenticators.appPasscode else { throw .passcodeNotSet }
        try requireInteraction()
        try await passcodeAttempts { () async throws(AuthenticationError) -> PasscodeVerification in
            let entry = await prompt.requestSecret(SecretRequest(kind: .appPasscode, prompt: "Enter the app passcode"))
            guard case .entered(let passcode) = entry else { return .cancelled }
            return await verifier.verify(passcode)
        }
    }

    /// When the device-passcode delay ends, if one is running.
    private func devicePasscodeDelayEnd() async throws(AuthenticationError) -> Date? {
        let now = authenticators.clock.now()
        let record = try await updateAttempts { record in
            record.passcodeDelay?.rebase(at: now)
        }
        return record.passcodeDelay?.end(at: now)
    }

    /// Counts a wrong device passcode and starts the delay the schedule sets.
    private func recordDevicePasscodeFailure() async throws(AuthenticationError) -> Date? {
        let now = authenticators.clock.now()
        let schedule = authenticators.backoff
        let record = try await updateAttempts { record in
            record.consecutivePasscodeFailures += 1
            let delay = schedule.delay(afterFailures: record.consecutivePasscodeFailures)
            record.passcodeDelay = delay > 0 ? AttemptRecord.Delay(start: now, duration: delay) : nil
        }
        return record.passcodeDelay?.end(at: now)
    }

    func requireInteraction() throws(AuthenticationError) {
        if settings.interactionNotAllowed || !prompt.canAskForSecrets { throw .notInteractive }
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
            case .unavailable(let reason):
                throw AuthenticationError(.passcodeNotSet, reason: reason)
            }
        }
        throw .authenticationFailed
    }
}
