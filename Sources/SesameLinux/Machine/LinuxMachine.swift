#if os(Linux)
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// This Linux account's machine as `sesame` uses it: what an iOS app gets
/// from `LAContext()` and the keychain with no setup, in one line.
///
/// ```swift
/// let machine = try LinuxMachine(appName: "Money")
/// let vault = try await machine.openVault()      // the user's default vault
/// ```
///
/// Its ``authenticators`` hold
/// - fprintd on the system bus (``FprintdSensor``);
/// - the login password through the PAM service ``pamService``
///   (``PAMPasscodeVerifier``);
/// - the account's attempt file (``attemptsPath``), so failures, lockout and
///   delays span every process of the user and survive restarts;
/// - the reuse window in the kernel user keyring (``KernelKeyringReuseWindowStore``),
///   named for Sesame rather than for the app, so a match in `sesame` serves
///   the app and the other way round ( ``reuseWindow`` says where it is kept);
/// - the owner's session lock from logind (``LogindSessionLock``), which
///   `whenUnlocked…` items and every grace period obey (SPEC D14);
/// - the TPM at ``tcti`` for vaults whose device key is sealed to it
///   (``TPMDeviceKeySealer``);
/// - a prompt on the terminal, only when standard input is one
///   (``defaultPresenter()``).
///
/// `sesame` builds its machine here too: an app and the CLI on the same
/// account share one attempt count, one reuse window and one vault, and
/// cannot disagree. Every part can be replaced afterwards through
/// ``authenticators``.
public struct LinuxMachine: Sendable {
    /// The name the shared state is kept under: the attempt file's folder,
    /// the reuse window's kernel-keyring key and the PAM service default are `sesame`'s.
    public static let sharedName = "sesame"

    /// The backends, for ``context()`` or any `AuthenticationContext`.
    public var authenticators: Authenticators
    /// The environment the defaults were read from.
    public let environment: [String: String]
    /// The PAM service that checks the login password (`/etc/pam.d/<service>`).
    public let pamService: String
    /// The account's attempt file (`FileAttemptStore.defaultPath(environment:)`).
    public let attemptsPath: String
    /// The TPM's tpm2-tss TCTI (`SESAME_TPM_TCTI`, else the kernel's resource manager).
    public let tcti: String
    /// Where the reuse window is kept, and whether it can be.
    public let reuseWindow: ReuseWindowPlace

    /// Where the reuse window (SPEC A6) lives on this machine.
    public struct ReuseWindowPlace: Sendable, Hashable {
        /// "kernel user keyring", or "not available: <why>".
        public let location: String
        /// Whether a window can be kept; when not, every evaluation prompts.
        public let available: Bool
    }

    /// This machine's authenticators for `appName`, with the defaults `sesame`
    /// documents. Nothing is asked of fprintd, PAM or the TPM until used.
    ///
    /// - Parameters:
    ///   - appName: Shown on prompts (SPEC A5).
    ///   - pamService: The PAM service for the login password; `sesame` by default.
    ///   - presenter: Shows prompts; ``defaultPresenter()`` by default, which
    ///     is `nil` (never prompt) when standard input is not a terminal.
    ///   - environment: Where `SESAME_VAULT`, `SESAME_TPM_TCTI`,
    ///     `XDG_STATE_HOME`/`XDG_DATA_HOME`/`HOME`, `SESAME_REUSE_SCOPE`,
    ///     `DBUS_SYSTEM_BUS_ADDRESS` and `XDG_SESSION_ID` are read; the
    ///     process's by default.
    /// - Throws: `PAMPasscodeVerifier.ConfigurationError` when `pamService`
    ///   is not a valid service name.
    public init(
        appName: String,
        pamService: String = LinuxMachine.sharedName,
        presenter: (any PromptPresenter)? = LinuxMachine.defaultPresenter(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PAMPasscodeVerifier.ConfigurationError) {
        self.environment = environment
        self.pamService = pamService
        attemptsPath = FileAttemptStore.defaultPath(environment: environment)
        tcti = TPMDeviceKeyStore.tcti(environment: environment)
        reuseWindow = switch KernelKeyringReuseWindowStore.availability() {
        case .available: ReuseWindowPlace(location: "kernel user keyring", available: true)
        case .notAvailable(let reason): ReuseWindowPlace(location: "not available: " + reason, available: false)
        }
        var authenticators = Authenticators.account(appName: appName, environment: environment)
        authenticators.sensor = FprintdSensor()
        authenticators.devicePasscode = PAMPasscodeVerifier(configuration: try .init(service: pamService))
        authenticators.presenter = presenter
        // SPEC D13: this process is an app too; another app's item asks its owner where its prompts are shown.
        authenticators.app = ProcessApp.current()
        // Where keyctl is blocked the store is still set and every read
        // fails, so nothing is reused; the attempt file is never a
        // fallback, as it outlives reboots.
        authenticators.reuseWindow = Self.reuseWindowStore(environment: environment)
        authenticators.deviceKeySealer = TPMDeviceKeySealer(tcti: tcti)
        authenticators.sessionLock = LogindSessionLock(.init(environment: environment))
        self.authenticators = authenticators
    }

    /// A terminal prompt (``TerminalPresenter``) when standard input is a
    /// terminal, else `nil`: a program in a pipe or a service never waits
    /// for a finger or a passcode nobody can give.
    ///
    /// - Returns: The presenter, or `nil`.
    public static func defaultPresenter() -> (any PromptPresenter)? {
        isatty(STDIN_FILENO) == 1 ? TerminalPresenter() : nil
    }

    /// The prompts of a command the owner started: the controlling terminal
    /// (``TerminalPresenter``) when there is one; else, in a graphical
    /// session (`$DISPLAY` or `$WAYLAND_DISPLAY`), the owner's pinentry,
    /// which shows a dialog for a password and for a scan (a command bound
    /// to a desktop shortcut has no terminal, yet the owner sits there);
    /// else `nil`, so what would prompt fails at once instead of waiting
    /// for a finger nobody was asked for.
    ///
    /// - Parameter environment: Where `DISPLAY`, `WAYLAND_DISPLAY`,
    ///   `PINENTRY` and `PATH` are read.
    /// - Returns: The presenter, or `nil`.
    public static func ownerPresenter(environment: [String: String] = ProcessInfo.processInfo.environment) -> (any PromptPresenter)? {
        PresenterChoice.owner(environment: environment)
    }

    /// The prompts of a program that runs in the background and serves
    /// others (an SSH agent, a Secret Service, an app's daemon), which must
    /// still reach the owner: `terminal` when there is one, else pinentry or
    /// `$SSH_ASKPASS` (``PinentryPresenter/preferred(environment:)``).
    /// pinentry shows every prompt itself, a scan's too (a dialog naming
    /// the app and the reason, with Cancel); the others are announced by a
    /// desktop notification on the session bus (``NotifyingPresenter``) so
    /// a finger is not awaited unseen.
    ///
    /// - Parameters:
    ///   - terminal: The terminal presenter, when the program has one.
    ///   - environment: Where `PINENTRY`, `SSH_ASKPASS`, `DISPLAY`,
    ///     `WAYLAND_DISPLAY`, `GPG_TTY` and `DBUS_SESSION_BUS_ADDRESS` are read.
    /// - Returns: The presenter, or `nil` when nothing can ask the owner.
    public static func servicePresenter(
        terminal: (any PromptPresenter)?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (any PromptPresenter)? {
        PresenterChoice.service(terminal: terminal, environment: environment)
    }

    /// A new context on ``authenticators``: interaction is not allowed when
    /// there is no presenter, so what would need a prompt fails at once with
    /// `notInteractive` (or `interactionNotAllowed` from a vault) instead of
    /// starting a scan.
    ///
    /// - Returns: The context.
    public func context() -> AuthenticationContext {
        let context = AuthenticationContext(authenticators)
        context.interactionNotAllowed = authenticators.presenter == nil
        return context
    }

    /// Ends the reuse window now (`sesame lock`): the next evaluation prompts
    /// even with a reuse duration. Also ends a window an older Sesame kept in
    /// the attempt file. Idempotent; never prompts; a missing attempt file is
    /// not created.
    ///
    /// - Throws: When the kernel keyring or the attempt file cannot be changed.
    public func endReuseWindow() async throws {
        if reuseWindow.available, let store = authenticators.reuseWindow {
            try await store.clear()
        }
        try await FileAttemptStore(path: attemptsPath).endReuseWindow()
    }

    /// The kernel-keyring window, named for Sesame. `SESAME_REUSE_SCOPE` only
    /// renames the key (tests run side by side with it); it decides nothing
    /// about whether a window is honoured.
    static func reuseWindowStore(environment: [String: String]) -> KernelKeyringReuseWindowStore {
        KernelKeyringReuseWindowStore(appName: sharedName, scope: environment["SESAME_REUSE_SCOPE"])
    }
}
#endif
