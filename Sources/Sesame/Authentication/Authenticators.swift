/// The authenticators of one machine and one app: the backends an
/// ``AuthenticationContext`` evaluates with, and the state they share.
///
/// Make one per app and create a context from it for each evaluation, as with
/// `LAContext`. Every context made from the same value shares the
/// ``attempts`` history, so lockout and the reuse window span contexts.
public struct Authenticators: Sendable {
    /// The application's name, shown on prompts (SPEC A5).
    public var appName: String
    /// The biometric sensor, if any.
    public var sensor: (any BiometricSensor)?
    /// The device passcode, if any.
    public var devicePasscode: (any DevicePasscodeVerifier)?
    /// The app passcode, if any.
    public var appPasscode: (any AppPasscodeVerifier)?
    /// Shows prompts; without one, evaluations that need a prompt for a
    /// secret fail with ``AuthenticationError/Code-swift.enum/notInteractive``.
    public var presenter: (any PromptPresenter)?
    /// Wall-clock time.
    public var clock: any AuthenticationClock
    /// The shared failure and success history.
    public var attempts: any AttemptStore
    /// Delays after repeated wrong device passcodes (SPEC E3).
    public var backoff: BackoffSchedule
    /// Keeps the last biometric success for the reuse window (SPEC A6);
    /// without one, the window is read from ``attempts``.
    public var reuseWindow: (any ReuseWindowStore)?
    /// Hardware that checks the vault passcode and limits guesses itself (a
    /// TPM); `nil`, scrypt alone, by default. See ``PasscodeGuard``.
    public var passcodeGuard: (any PasscodeGuard)?
    /// Hardware that seals vaults' device keys (a TPM); `nil`, key files
    /// only, by default. A vault opened by its device slot without an
    /// explicit store uses ``Vault/defaultDeviceKeyStore(forVaultAt:sealer:)``
    /// with it. See ``DeviceKeySealer``.
    public var deviceKeySealer: (any DeviceKeySealer)?

    /// Which app this process is (SPEC D13: an item knows the app that made
    /// it), as the platform tells it: a Flatpak app id, else the
    /// executable. `nil` is an unknown app, which an item bound to an app
    /// never admits without asking. A context may act for another app
    /// (``AuthenticationContext/askingApp``), as a service does for its clients.
    public var app: AppIdentity?

    /// Asks the owner when the app wants an item another app made
    /// (SPEC D13); when `nil`, the ``presenter`` asks if it can (a
    /// presenter that is also an ``AppAccessPresenter``), else such an item
    /// is refused, saying nobody could be asked.
    public var appAccess: (any AppAccessPresenter)?

    /// Whether the owner's session is locked (SPEC D14): `whenUnlocked…`
    /// items are refused while it is, and a lock ends the reuse window and
    /// cancels a prompt that is showing (`systemCancel`). `nil` observes no
    /// lock, which Sesame treats as unlocked (the rule where no session
    /// manager answers); `SesameLinux` sets logind's.
    public var sessionLock: (any SessionLockMonitor)?

    /// Bundles the backends.
    ///
    /// - Parameters:
    ///   - appName: The application's name, shown on prompts.
    ///   - sensor: The biometric sensor, if any.
    ///   - devicePasscode: The device passcode verifier, if any.
    ///   - appPasscode: The app passcode verifier, if any.
    ///   - presenter: Shows prompts.
    ///   - clock: Wall-clock time; the system clock by default.
    ///   - attempts: The shared history; a new in-memory store by default.
    ///     Use a ``FileAttemptStore`` so that lockout and delays survive restarts.
    ///   - backoff: Delays after repeated wrong device passcodes; iOS's by default.
    ///   - reuseWindow: Where the reuse window is kept; `nil` (the default)
    ///     keeps it in `attempts`.
    ///   - app: Which app this process is (SPEC D13); `nil` for an unknown one.
    ///   - appAccess: Asks the owner when the app wants an item another app
    ///     made; `nil` refuses such items.
    ///   - sessionLock: Whether the owner's session is locked; `nil` observes none.
    public init(
        appName: String,
        sensor: (any BiometricSensor)? = nil,
        devicePasscode: (any DevicePasscodeVerifier)? = nil,
        appPasscode: (any AppPasscodeVerifier)? = nil,
        presenter: (any PromptPresenter)? = nil,
        clock: any AuthenticationClock = SystemClock(),
        attempts: any AttemptStore = InMemoryAttemptStore(),
        backoff: BackoffSchedule = .standard,
        reuseWindow: (any ReuseWindowStore)? = nil,
        app: AppIdentity? = nil,
        appAccess: (any AppAccessPresenter)? = nil,
        sessionLock: (any SessionLockMonitor)? = nil
    ) {
        self.appName = appName
        self.sensor = sensor
        self.devicePasscode = devicePasscode
        self.appPasscode = appPasscode
        self.presenter = presenter
        self.clock = clock
        self.attempts = attempts
        self.backoff = backoff
        self.reuseWindow = reuseWindow
        self.app = app
        self.appAccess = appAccess
        self.sessionLock = sessionLock
    }
}
