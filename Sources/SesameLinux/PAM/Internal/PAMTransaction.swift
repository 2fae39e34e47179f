#if os(Linux)
import CSesameLinux
import Sesame

/// One PAM transaction: `pam_start` → no failure delay → `pam_authenticate`
/// → `pam_acct_mgmt` → `pam_end`, always ended. Runs on the PAM thread.
struct PAMTransaction: Sendable {
    /// The outcome, plus a message for the user that PAM did not send itself.
    struct Result: Sendable {
        var verification: PasscodeVerification
        var notice: String?
    }

    /// Refuses accounts with an empty password even where the service's
    /// modules would allow them (`nullok`).
    private static let flags: Int32 = 0x0001 // PAM_DISALLOW_NULL_AUTHTOK

    let library: PAMLibrary
    let configuration: PAMPasscodeVerifier.Configuration
    let bridge: PAMConversationBridge

    func run() -> Result {
        var conversation = sesame_pam_conv(
            conv: pamConversationCallback,
            appdata_ptr: Unmanaged.passUnretained(bridge).toOpaque()
        )
        var handle: OpaquePointer?
        let started = withExtendedLifetime(bridge) {
            configuration.service.withCString { service in
                configuration.user.withCString { user in
                    withOptionalCString(configuration.configDirectory) { directory in
                        sesame_pam_start(library.table, service, user, &conversation, directory, &handle)
                    }
                }
            }
        }
        guard started == SESAME_PAM_SUCCESS, let handle else {
            let text = library.describe(started, handle: handle)
            if let handle { _ = sesame_pam_end(library.table, handle, started) }
            return Result(verification: .unavailable(reason(started, text, phase: "start")))
        }
        let result = withExtendedLifetime(bridge) { authenticate(handle) }
        _ = sesame_pam_end(library.table, handle, result.status)
        return finish(result)
    }

    private struct Progress {
        var status: Int32
        var verdict: PAMResultMapping.Verdict
        var text: String
        var accountPhase = false
        var errorsBeforeAccount = 0
    }

    private func authenticate(_ handle: OpaquePointer) -> Progress {
        // Without this, pam_unix and pam_pwdfile sleep ~2 s (randomised) after
        // a failure; Sesame's back-off is persistent and lives in the core.
        let delay = sesame_pam_disable_fail_delay(library.table, handle)
        guard delay == SESAME_PAM_SUCCESS else {
            return Progress(status: delay, verdict: .unavailable(.notConfigured), text: library.describe(delay, handle: handle))
        }
        let auth = sesame_pam_authenticate(library.table, handle, Self.flags)
        let verdict = PAMResultMapping.authentication(auth)
        guard verdict == .success else {
            return Progress(status: auth, verdict: verdict, text: library.describe(auth, handle: handle))
        }
        let errorsBefore = bridge.record.errorsShown
        let account = sesame_pam_acct_mgmt(library.table, handle, Self.flags)
        return Progress(
            status: account,
            verdict: PAMResultMapping.accountManagement(account),
            text: library.describe(account, handle: handle),
            accountPhase: true,
            errorsBeforeAccount: errorsBefore
        )
    }

    private func finish(_ progress: Progress) -> Result {
        let record = bridge.record
        // A cancel wins over whatever PAM concluded: the caller asked to stop.
        if record.taskCancelled || record.userCancelled {
            return Result(verification: .cancelled)
        }
        // Nobody saw the password prompt: not a wrong password, not a Cancel.
        if let why = record.notShown {
            return Result(verification: .unavailable(UnavailableReason(.nobodyToAsk, "nobody could be asked: \(why)")))
        }
        if record.invalidEntry {
            return Result(verification: .rejected)
        }
        switch progress.verdict {
        case .success:
            return Result(verification: .accepted)
        case .rejected:
            // Tell the user why a right password did not unlock, unless a
            // module already did (pam_unix: "Your account has expired ...").
            let silent = progress.accountPhase && record.errorsShown == progress.errorsBeforeAccount
            let notice = silent ? "The account '\(configuration.user)' may not sign in: \(progress.text)" : nil
            return Result(verification: .rejected, notice: notice)
        case .unavailable(let kind):
            let phase = progress.accountPhase ? "account" : "authenticate"
            return Result(verification: .unavailable(reason(progress.status, progress.text, phase: phase, kind: kind)))
        }
    }

    private func reason(_ status: Int32, _ text: String, phase: String, kind: UnavailableReason.Kind = .notConfigured) -> UnavailableReason {
        let kind = status == SESAME_PAM_SYMBOL_ERR && phase == "start" ? .libraryMissing : kind
        return UnavailableReason(kind, "PAM service '\(configuration.service)' failed (\(phase)): \(text) (PAM error \(status))")
    }
}

private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
#endif
