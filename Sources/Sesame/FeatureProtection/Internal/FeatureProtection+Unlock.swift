/// The check a protected feature needs: its policy (SPEC B5), then the
/// enrolment guard (SPEC C2, C3).
extension FeatureProtection {
    private static let fallsBack: Set<AuthenticationError.Code> = [
        .userFallback, .authenticationFailed, .biometryLockout, .biometryNotAvailable, .biometryNotEnrolled,
    ]

    /// Authenticates for `entry`; when biometrics matched under a changed
    /// enrolment, runs the owner verification and records the new enrolment
    /// in `record` (saved here, so the change is not asked for twice).
    func unlock(_ feature: Feature?, entry: FeatureRecord.Entry, record: inout FeatureRecord, reason: String) async throws(FeatureProtectionError) {
        let context = AuthenticationContext(authenticators)
        let readiness = await biometricReadiness(context)
        if readiness == nil {
            switch entry.policy {
            case .biometrics: context.fallbackTitle = ""
            case .biometricsOrDevicePasscode: context.fallbackTitle = "Enter Password"
            case .biometricsOrAppPasscode: context.fallbackTitle = "Enter App Passcode"
            }
            var matched = false
            do throws(AuthenticationError) {
                try await context.evaluate(.biometrics, localizedReason: reason)
                matched = true
            } catch {
                guard entry.policy != .biometrics, Self.fallsBack.contains(error.code) else { throw .authenticationFailed(error) }
            }
            if matched {
                try await checkEnrolment(context.domainState, feature: feature, entry: entry, record: &record, reason: reason)
                return
            }
        } else if entry.policy == .biometrics, let readiness {
            // B5: no fallback configured: fail closed, saying why.
            throw .unavailable(readiness)
        }
        try await fallback(entry.policy, reason: reason)
    }

    private func fallback(_ policy: FeatureProtectionPolicy, reason: String) async throws(FeatureProtectionError) {
        let context = AuthenticationContext(authenticators)
        do throws(AuthenticationError) {
            switch policy {
            case .biometrics:
                throw AuthenticationError.biometryNotAvailable
            case .biometricsOrDevicePasscode:
                try await context.evaluateAccessControl(.devicePasscode, operation: .useItem, localizedReason: reason)
            case .biometricsOrAppPasscode:
                try await context.evaluate(.appPasscode, localizedReason: reason)
            }
        } catch {
            throw error.code == .passcodeNotSet ? .unavailable(error) : .authenticationFailed(error)
        }
    }

    /// SPEC C2/C3: trust the match only under the recorded enrolment.
    private func checkEnrolment(
        _ current: DomainState?,
        feature: Feature?,
        entry: FeatureRecord.Entry,
        record: inout FeatureRecord,
        reason: String
    ) async throws(FeatureProtectionError) {
        // A sensor that cannot tell its enrolment proves nothing about it.
        if let current, current == entry.domainState { return }
        try await verifyOwner(reason: reason)
        if let feature, var updated = record.features[feature.rawValue] {
            updated.domainState = current
            record.features[feature.rawValue] = updated
            try await save(record)
        }
    }

    private func verifyOwner(reason: String) async throws(FeatureProtectionError) {
        switch ownerVerification {
        case nil:
            throw .enrolmentChanged
        case .appPasscode:
            do throws(AuthenticationError) {
                try await AuthenticationContext(authenticators).evaluate(.appPasscode, localizedReason: reason)
            } catch {
                throw [.userCancel, .appCancel, .systemCancel].contains(error.code) ? .authenticationFailed(error) : .enrolmentChanged
            }
        case .custom(let verify):
            guard await verify(reason) else { throw .enrolmentChanged }
        }
    }
}
