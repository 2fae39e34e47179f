#if os(Linux)
import CSesameLinux
import Sesame

/// How a PAM return code counts for Sesame. Kept free of PAM calls so the
/// table can be tested without libpam.
enum PAMResultMapping {
    enum Verdict: Equatable {
        case success
        /// Not authenticated: a wrong password, an unknown user, or an
        /// account that may not sign in. Deliberately one case, so callers
        /// cannot tell an unknown user from a wrong password.
        case rejected
        /// PAM could not decide; `kind` says what to look at.
        case unavailable(UnavailableReason.Kind)
    }

    /// `pam_authenticate`'s code.
    static func authentication(_ code: Int32) -> Verdict {
        switch code {
        case SESAME_PAM_SUCCESS:
            .success
        case SESAME_PAM_AUTH_ERR, SESAME_PAM_USER_UNKNOWN, SESAME_PAM_MAXTRIES,
             SESAME_PAM_CRED_INSUFFICIENT, SESAME_PAM_PERM_DENIED, SESAME_PAM_AUTHTOK_ERR,
             SESAME_PAM_NEW_AUTHTOK_REQD, SESAME_PAM_ACCT_EXPIRED, SESAME_PAM_AUTHTOK_EXPIRED:
            .rejected
        default:
            unavailable(code)
        }
    }

    /// `pam_acct_mgmt`'s code, after a successful `pam_authenticate`. An
    /// account that may not be used is not authenticated.
    static func accountManagement(_ code: Int32) -> Verdict {
        switch code {
        case SESAME_PAM_SUCCESS:
            .success
        case SESAME_PAM_ACCT_EXPIRED, SESAME_PAM_NEW_AUTHTOK_REQD, SESAME_PAM_AUTHTOK_EXPIRED,
             SESAME_PAM_PERM_DENIED, SESAME_PAM_AUTH_ERR, SESAME_PAM_USER_UNKNOWN:
            .rejected
        default:
            unavailable(code)
        }
    }

    private static func unavailable(_ code: Int32) -> Verdict {
        switch code {
        // A process that is not root asking about another user, or an
        // unreadable password database: the check is not allowed here.
        case SESAME_PAM_AUTHINFO_UNAVAIL: .unavailable(.permissionDenied)
        // ABORT, SERVICE_ERR, SYSTEM_ERR, MODULE_UNKNOWN, CONV_ERR, ...: the
        // service's configuration or a module is broken.
        default: .unavailable(.notConfigured)
        }
    }
}
#endif
