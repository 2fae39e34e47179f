import Sesame

/// Maps `LAError` codes onto Sesame's backend vocabulary. One table per
/// consumer, each switch exhaustive so a new code cannot slip through.
package enum LAErrorMapping {
    /// What a failed biometric evaluation means to Sesame's scan loop:
    /// a counted non-match, or an error that ends the prompt.
    package enum ScanOutcome: Sendable, Equatable {
        case noMatch
        case error(BiometricSensorError)
    }

    /// Maps a failed biometric evaluation.
    ///
    /// - Parameter failure: The LAError.
    /// - Returns: `.noMatch` for `authenticationFailed`, otherwise the sensor error.
    package static func scanOutcome(_ failure: LAFailure) -> ScanOutcome {
        guard let code = failure.code else { return .error(.unavailable(unknown(failure))) }
        switch code {
        case .authenticationFailed: return .noMatch
        case .userCancel: return .error(.userCancel)
        case .userFallback: return .error(.userFallback)
        case .systemCancel: return .error(.systemCancel)
        // Sesame itself invalidated the context (task cancelled, or
        // AuthenticationContext.invalidate()).
        case .appCancel: return .error(.cancelled)
        case .biometryLockout: return .error(.lockedOut)
        case .biometryNotEnrolled: return .error(.notEnrolled)
        default:
            guard let reason = reason(for: code, message: failure.message) else {
                return .error(.unavailable(unknown(failure)))
            }
            return .error(.unavailable(reason))
        }
    }

    /// Maps a failed `canEvaluatePolicy` to a sensor availability.
    ///
    /// - Parameter failure: The LAError.
    /// - Returns: The availability it stands for.
    package static func availability(_ failure: LAFailure) -> BiometricSensorState.Availability {
        switch failure.code {
        case .biometryNotEnrolled: .notEnrolled
        case .biometryLockout: .lockedOut
        case let code?: .unavailable(reason(for: code, message: failure.message) ?? unknown(failure))
        case nil: .unavailable(unknown(failure))
        }
    }

    /// Maps a failed device-owner evaluation to a passcode outcome.
    ///
    /// - Parameter failure: The LAError.
    /// - Returns: The passcode verification it stands for.
    package static func passcodeVerification(_ failure: LAFailure) -> PasscodeVerification {
        guard let code = failure.code else { return .unavailable(unknown(failure)) }
        switch code {
        case .authenticationFailed: return .rejected
        // The passcode sheet offers no fallback, but a biometric stage may;
        // either way the user declined to enter the passcode.
        case .userCancel, .userFallback, .systemCancel, .appCancel: return .cancelled
        default: return .unavailable(reason(for: code, message: failure.message) ?? unknown(failure))
        }
    }

    /// Maps a failed `canEvaluatePolicy(.deviceOwnerAuthentication)`.
    ///
    /// - Parameter failure: The LAError.
    /// - Returns: The passcode state it stands for.
    package static func passcodeState(_ failure: LAFailure) -> PasscodeState {
        .notSet(failure.code.flatMap { reason(for: $0, message: failure.message) } ?? unknown(failure))
    }

    /// Why an authenticator is unavailable, for codes that mean that;
    /// `nil` for outcomes of a prompt (cancel, no match, lockout…).
    ///
    /// - Parameters:
    ///   - code: The code.
    ///   - message: The framework's words, appended for diagnostics.
    /// - Returns: The reason, or `nil`.
    package static func reason(for code: LAErrorCode, message: String = "") -> UnavailableReason? {
        let (kind, detail): (UnavailableReason.Kind, String)
        switch code {
        case .passcodeNotSet: (kind, detail) = (.notConfigured, "No device passcode is set")
        case .biometryNotAvailable: (kind, detail) = (.noSensor, "Biometry is not available on this device")
        case .biometryNotEnrolled: (kind, detail) = (.noSensor, "No biometric is enrolled")
        case .biometryLockout: (kind, detail) = (.permissionDenied, "Biometry is locked out")
        case .biometryDisconnected:
            (kind, detail) = (.disconnected, "The paired biometric accessory is not connected")
        case .biometryNotPaired: (kind, detail) = (.noSensor, "No biometric accessory is paired")
        case .companionNotAvailable: (kind, detail) = (.noSensor, "No companion device is available")
        case .notInteractive:
            (kind, detail) = (.permissionDenied, "Interaction is not allowed (LAError.notInteractive)")
        case .invalidContext: (kind, detail) = (.stateUnavailable, "The LAContext was invalidated")
        case .invalidDimensions: (kind, detail) = (.hardwareError, "The embedded authentication UI has invalid dimensions")
        case .authenticationFailed, .userCancel, .userFallback, .systemCancel, .appCancel: return nil
        }
        return UnavailableReason(kind, message.isEmpty ? detail : "\(detail) (\(message))")
    }

    private static func unknown(_ failure: LAFailure) -> UnavailableReason {
        UnavailableReason(.hardwareError, "LocalAuthentication failed with LAError \(failure.rawCode)\(failure.message.isEmpty ? "" : ": \(failure.message)")")
    }
}
