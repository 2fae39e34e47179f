#if os(Linux)
import Sesame

/// Checks the device passcode, i.e. the user's login password, through PAM.
///
/// libpam is loaded at run time (`libpam.so.0`); without it the verifier
/// reports itself unavailable instead of failing to start. Every PAM call
/// runs on a thread of its own, never on Swift's cooperative pool, and PAM's
/// questions ("Password: ") and messages go through the caller's
/// `PasscodeConversation`.
///
/// The PAM service must be configured: Sesame refuses to call PAM when
/// `/etc/pam.d/<service>` (or `/usr/lib/pam.d/<service>`) is missing, because
/// PAM would silently fall back to the `other` service, which authenticates
/// on some systems and denies on others.
///
/// PAM's own failure delay is switched off: Sesame's core applies its own
/// back-off, which survives restarts. Note that PAM modules answer an unknown
/// user faster than a wrong password (no hashing), so the time a rejection
/// takes can hint at whether an account exists; with the default
/// configuration the user is the caller's own account, which limits the value
/// of that hint.
public struct PAMPasscodeVerifier: DevicePasscodeVerifier {
    /// Which service checks whose password.
    public let configuration: Configuration
    private let libraryName: String

    /// Creates a verifier.
    ///
    /// - Parameter configuration: The PAM service, user, and optional private
    ///   configuration directory.
    public init(configuration: Configuration) {
        self.init(configuration: configuration, libraryName: PAMLibrary.standardName)
    }

    /// Creates a verifier that loads libpam under another name; tests use it
    /// to exercise a missing library.
    init(configuration: Configuration, libraryName: String) {
        self.configuration = configuration
        self.libraryName = libraryName
    }

    /// Whether the password can be checked. Never prompts and never calls
    /// into PAM's modules.
    ///
    /// - Returns: `PasscodeState.set`, or `PasscodeState.notSet(_:)` with
    ///   `libraryMissing` (no libpam, or no `pam_start_confdir` for a private
    ///   directory) or `notConfigured` (the service file is missing).
    public func currentState() async -> PasscodeState {
        switch preflight() {
        case .loaded: .set
        case .unavailable(let reason): .notSet(reason)
        }
    }

    /// Runs one PAM password check.
    ///
    /// - Parameter conversation: Asked for each PAM prompt; shown PAM's
    ///   informational and error messages.
    /// - Returns: `PasscodeVerification.accepted` when PAM authenticated the
    ///   user and the account may be used; `PasscodeVerification.rejected`
    ///   for a wrong password, an unknown user (not told apart) or an account
    ///   that is expired or must change its password;
    ///   `PasscodeVerification.cancelled` when the user cancelled a prompt
    ///   or the calling task was cancelled; `PasscodeVerification.unavailable(_:)`
    ///   when PAM is missing, not configured, or failed.
    public func verify(using conversation: any PasscodeConversation) async -> PasscodeVerification {
        let library: PAMLibrary
        switch preflight() {
        case .loaded(let loaded): library = loaded
        case .unavailable(let reason): return .unavailable(reason)
        }
        guard !Task.isCancelled else { return .cancelled }

        let bridge = PAMConversationBridge(conversation: conversation, priority: Task.currentPriority)
        let transaction = PAMTransaction(library: library, configuration: configuration, bridge: bridge)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PAMTransaction.Result, Never>) in
                let started = PAMThread.detach { continuation.resume(returning: transaction.run()) }
                if !started {
                    let reason = UnavailableReason(.notConfigured, "Sesame could not start a thread for PAM")
                    continuation.resume(returning: PAMTransaction.Result(verification: .unavailable(reason)))
                }
            }
        } onCancel: {
            bridge.cancel()
        }
        if let notice = result.notice, !Task.isCancelled {
            await conversation.show(.error(notice))
        }
        return result.verification
    }

    private func preflight() -> PAMAvailability {
        let availability = PAMLibrary.load(libraryName)
        guard case .loaded(let library) = availability else { return availability }
        let service = configuration.service
        let directory = configuration.configDirectory
        if directory != nil, !library.supportsConfigDirectory {
            return .unavailable(UnavailableReason(
                .libraryMissing,
                "\(libraryName) has no pam_start_confdir (Linux-PAM 1.4 or later is needed for a private configuration directory)"
            ))
        }
        guard PAMServiceFile.locate(service: service, configDirectory: directory) != nil else {
            let path = PAMServiceFile.expectedPath(service: service, configDirectory: directory)
            return .unavailable(UnavailableReason(
                .notConfigured,
                "PAM service '\(service)' is not configured: create \(path) (see sesame(1), FILES)"
            ))
        }
        return availability
    }
}
#endif
