import Sesame

extension CTAP2Status {
    /// The code for what a command or the store threw. A status passes
    /// through; a cancelled request is `CTAP2_ERR_KEEPALIVE_CANCEL` (SPEC P3:
    /// CANCEL ends a waiting request); the owner saying no is
    /// `CTAP2_ERR_OPERATION_DENIED`; a failed verification
    /// `CTAP2_ERR_UV_INVALID` and a lockout `CTAP2_ERR_UV_BLOCKED`, as CTAP
    /// 2.1 §6.1.2 answers for built-in user verification; anything else
    /// `CTAP1_ERR_OTHER`.
    init(_ error: any Error, cancelled: Bool) {
        if let status = error as? CTAP2Status {
            self = status
        } else if cancelled || error is CancellationError {
            self = .keepaliveCancel
        } else if let error = error as? AuthenticationError {
            self = Self(error)
        } else if let error = error as? VaultError {
            if let authentication = error.authenticationError {
                self = Self(authentication)
            } else {
                switch error.status {
                case .userCanceled, .interactionNotAllowed, .notAvailable: self = .operationDenied
                case .authFailed: self = .uvInvalid
                case .itemNotFound, .itemInvalidated: self = .noCredentials
                default: self = .other
                }
            }
        } else {
            self = .other
        }
    }

    private init(_ error: AuthenticationError) {
        switch error.code {
        case .authenticationFailed, .userFallback: self = .uvInvalid
        case .biometryLockout: self = .uvBlocked
        case .userCancel, .appCancel, .systemCancel, .notInteractive, .passcodeNotSet, .biometryNotAvailable,
            .biometryNotEnrolled, .invalidContext:
            self = .operationDenied
        }
    }
}
