/// Authenticating for an item's access control ahead of time (SPEC A12).
extension Evaluation {
    private static let biometricFlags: Set<AccessControl.Flag> = [.biometryAny, .biometryCurrentSet, .userPresence]
    private static let passcodeFlags: Set<AccessControl.Flag> = [.userPresence, .devicePasscode]

    func authorize(_ accessControl: AccessControl, for operation: AccessControlOperation) async throws(AuthenticationError) -> Authorization {
        var proof = Proof()
        do throws(AuthenticationError) {
            let factors = accessControl.userFactors
            if factors.count <= 1 || accessControl.combination == .or {
                if !factors.isEmpty { try await satisfyAny(of: factors, into: &proof) }
            } else {
                try await satisfyAll(of: factors, into: &proof)
            }
            await prompt.end(nil)
        } catch {
            await prompt.end(error)
            throw error
        }
        if accessControl.flags.contains(.privateKeyUsage) { proof.satisfied.insert(.privateKeyUsage) }
        return Authorization(
            accessControl: accessControl,
            operation: operation,
            satisfied: proof.satisfied,
            domainState: proof.domainState,
            date: authenticators.clock.now()
        )
    }

    /// Whether ``authorize(_:for:)`` would succeed now without showing
    /// anything, by the same rules: a biometric factor through the reuse
    /// window, an application password already on the context. The device
    /// passcode always prompts. Reads the sensor's state and the attempt
    /// record; counts nothing.
    func satisfiedWithoutPrompt(_ accessControl: AccessControl) async -> Bool {
        let factors = accessControl.userFactors
        if factors.isEmpty { return true }
        let password = factors.contains(.applicationPassword) && context.isCredentialSet(.applicationPassword)
        var reused = false
        if !factors.isDisjoint(with: Self.biometricFlags) { reused = await biometricReuseApplies() }
        if factors.count <= 1 || accessControl.combination == .or {
            return password || reused
        }
        for factor in factors {
            switch factor {
            case .biometryAny, .biometryCurrentSet, .userPresence: if !reused { return false }
            case .applicationPassword: if !password { return false }
            case .devicePasscode, .privateKeyUsage: return false
            }
        }
        return true
    }

    /// Whether a biometric prompt would match at once from the reuse
    /// window: biometrics usable and not locked out, and a success with this
    /// enrolment within the window (SPEC A6).
    private func biometricReuseApplies() async -> Bool {
        guard let state = try? await checkBiometrics() else { return false }
        return (try? await withinReuseWindow(state.domainState)) ?? false
    }

    private struct Proof {
        var satisfied: Set<AccessControl.Flag> = []
        var domainState: DomainState?
    }

    /// `or`: the first factor the user passes. Biometrics first, with the
    /// fallback button leading to whichever other factor the item allows.
    private func satisfyAny(of factors: Set<AccessControl.Flag>, into proof: inout Proof) async throws(AuthenticationError) {
        if factors.contains(.applicationPassword) && context.isCredentialSet(.applicationPassword) {
            proof.satisfied.insert(.applicationPassword)
            return
        }
        let biometric = factors.intersection(Self.biometricFlags)
        let passcode = factors.intersection(Self.passcodeFlags)
        let hasAlternative = !passcode.isEmpty || factors.contains(.applicationPassword)
        var biometricFailure = AuthenticationError.userFallback
        if !biometric.isEmpty {
            do throws(AuthenticationError) {
                let outcome = try await biometricPrompt(fallback: hasAlternative ? settings.fallbackTitle : "")
                if outcome == .matched {
                    proof.satisfied.formUnion(biometric)
                    proof.domainState = context.domainState
                    return
                }
            } catch {
                let fallsThrough: Set<AuthenticationError.Code> = [.authenticationFailed, .biometryLockout, .biometryNotAvailable, .biometryNotEnrolled]
                guard hasAlternative, fallsThrough.contains(error.code) else { throw error }
                biometricFailure = error
            }
        }
        if !passcode.isEmpty {
            try await devicePasscodePrompt()
            proof.satisfied.formUnion(passcode)
        } else if factors.contains(.applicationPassword) {
            try await askForApplicationPassword()
            proof.satisfied.insert(.applicationPassword)
        } else {
            throw biometricFailure
        }
    }

    /// `and`: every factor, one after another; one biometric match covers
    /// every biometric flag.
    private func satisfyAll(of factors: Set<AccessControl.Flag>, into proof: inout Proof) async throws(AuthenticationError) {
        let strictBiometric = factors.intersection([.biometryAny, .biometryCurrentSet])
        if !strictBiometric.isEmpty {
            guard try await biometricPrompt(fallback: "") == .matched else { throw .userFallback }
            proof.satisfied.formUnion(strictBiometric)
            proof.domainState = context.domainState
            if factors.contains(.userPresence) { proof.satisfied.insert(.userPresence) }
        }
        if factors.contains(.userPresence) && !proof.satisfied.contains(.userPresence) {
            try await deviceOwner()
            proof.satisfied.insert(.userPresence)
        }
        if factors.contains(.devicePasscode) {
            try await devicePasscodePrompt()
            proof.satisfied.insert(.devicePasscode)
        }
        if factors.contains(.applicationPassword) {
            if !context.isCredentialSet(.applicationPassword) { try await askForApplicationPassword() }
            proof.satisfied.insert(.applicationPassword)
        }
    }

    /// Asks for the application password and keeps it on the context; whether
    /// it is right is only known when the store decrypts with it (SPEC D6).
    private func askForApplicationPassword() async throws(AuthenticationError) {
        try requireInteraction()
        let entry = await prompt.requestSecret(SecretRequest(kind: .applicationPassword, prompt: "Enter the application password"))
        if case .notShown(let why) = entry { throw Self.nobodyAsked(why) }
        guard case .entered(let password) = entry else {
            throw Task.isCancelled ? .appCancel : .userCancel
        }
        context.setCredential(password, type: .applicationPassword)
    }
}
