#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// This account's machine on Apple platforms: the choice of backends that
/// `LinuxMachine` makes on Linux, made here once, so that an app and
/// `sesame` built for a Mac share one attempt count and cannot disagree.
///
/// ```swift
/// let machine = AppleMachine(appName: "Money", localizedReason: "Open your accounts")
/// let vault = try await machine.openVault(at: AppleMachine.vaultPath(nil), unlock: unlock)
/// ```
///
/// Its ``authenticators`` hold
/// - Touch ID, Face ID or Optic ID through LocalAuthentication
///   (``LocalAuthenticationSensor``);
/// - the device passcode (or the Mac's login password) through
///   LocalAuthentication (``LocalAuthenticationPasscode``);
/// - the account's attempt file (``attemptsPath``), so failures, lockout and
///   delays count once for every program of the user (SPEC A4);
/// - no reuse-window store: the window is kept in the attempt record
///   (SPEC A6), and the system's own reuse duration stays 0.
///
/// The system draws its own sheets; the presenter is for Sesame's own
/// questions. Every part can be replaced afterwards through ``authenticators``.
/// Making one never prompts.
public struct AppleMachine: Sendable {
    /// The backends, for any `AuthenticationContext`.
    public var authenticators: Authenticators
    /// The account's attempt file (`FileAttemptStore.defaultPath(environment:)`).
    public let attemptsPath: String

    /// The machine over any `LAContext`-shaped factory (the system's, or a
    /// simulation in tests).
    ///
    /// - Parameters:
    ///   - appName: Shown on Sesame's prompts (SPEC A5).
    ///   - localizedReason: The reason the system's sheet shows.
    ///   - presenter: Sesame's own prompts; `nil` never asks.
    ///   - environment: Where `XDG_STATE_HOME` and `HOME` are read.
    ///   - makeContext: Makes a fresh context per query and per claim.
    package init(
        appName: String, localizedReason: String, presenter: (any PromptPresenter)?, environment: [String: String],
        makeContext: @escaping @Sendable () -> any LAContextProtocol
    ) {
        attemptsPath = FileAttemptStore.defaultPath(environment: environment)
        var authenticators = Authenticators.account(appName: appName, environment: environment)
        authenticators.sensor = LocalAuthenticationSensor(localizedReason: localizedReason, makeContext: makeContext)
        authenticators.devicePasscode = LocalAuthenticationPasscode(localizedReason: localizedReason, makeContext: makeContext)
        authenticators.presenter = presenter
        self.authenticators = authenticators
    }

    /// Where the reuse window lives on this machine: the attempt record.
    public var reuseWindowLocation: String { "attempt record " + attemptsPath }

    /// The vault file a program names, or the user's vault when it names
    /// none (`SESAME_VAULT` when set, else `Vault.defaultPath(environment:)`),
    /// as on Linux.
    ///
    /// - Parameters:
    ///   - path: The vault file given, or `nil`.
    ///   - environment: Where `SESAME_VAULT` and the data directories are read.
    /// - Returns: The vault file.
    public static func vaultPath(_ path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Vault.path(path, environment: environment)
    }

    /// Opens a vault with this machine's backends.
    ///
    /// - Parameters:
    ///   - path: The vault file.
    ///   - unlock: How its vault key is unwrapped.
    /// - Returns: The vault.
    /// - Throws: `VaultError`, as `Vault.open(at:unlock:authenticators:)`.
    public func openVault(at path: String, unlock: VaultUnlock) async throws(VaultError) -> Vault {
        try await Vault.open(at: path, unlock: unlock, authenticators: authenticators)
    }

    /// Opens a vault in the library's order: the device key first, then the
    /// passcode that `passcode` supplies.
    ///
    /// - Parameters:
    ///   - path: The vault file.
    ///   - passcode: Asked for the passcode once the device key alone does not open it.
    ///   - failure: Maps the vault's error to the caller's.
    /// - Returns: The vault.
    /// - Throws: `Failure`.
    public func openVault<Failure: Error>(
        at path: String, passcode: (_ locked: VaultError) async throws(Failure) -> SecretBytes, failure: (VaultError) -> Failure
    ) async throws(Failure) -> Vault {
        try await Vault.open(at: path, authenticators: authenticators, passcode: passcode, failure: failure)
    }

    /// Ends the reuse window now (`sesame lock`): the next evaluation
    /// prompts even with a reuse duration. Idempotent; never prompts; a
    /// missing attempt file is not created.
    ///
    /// - Throws: When the attempt file cannot be changed.
    public func endReuseWindow() async throws {
        try await FileAttemptStore(path: attemptsPath).endReuseWindow()
    }
}
