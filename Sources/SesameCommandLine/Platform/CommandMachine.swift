import Sesame
#if os(Linux)
import SesameLinux

/// The library's machine on this platform, the one name the commands use:
/// the library, not the CLI, chooses the backends.
typealias Machine = LinuxMachine
#else
import SesameApple

/// The library's machine on this platform, the one name the commands use:
/// the library, not the CLI, chooses the backends.
typealias Machine = AppleMachine
#endif

/// What the commands read of the library's machine beyond the library's
/// own API: the password of `--password-fd`, which ``VaultOptions/machine()``
/// makes the presenter, and where a vault's device key lives. `Machine`
/// answers from the TPM and the files beside the vault; off Linux there is
/// no TPM, and the answers say so.
protocol CommandMachine {
    var authenticators: Authenticators { get }
    /// How the TPM is reached (`SESAME_TPM_TCTI`); "none" where there is none.
    var tcti: String { get }
    /// Why no TPM can be used, or `nil` when one answers.
    func tpmUnavailability() async -> String?
    /// The vault passcode's guard, where hardware checks the passcode.
    func vaultPasscodeGuard(forVaultAt vaultPath: String) -> (any PasscodeGuard)?
    /// The store the vault's device key is in now: the library's one choice.
    func deviceKeyStore(forVaultAt vaultPath: String) -> any DeviceKeyStore
    /// "sealed to the TPM (…)" or "in the file …", for messages and `status`.
    func describeDeviceKey(_ kind: DeviceKeyKind, forVaultAt vaultPath: String) -> String
    /// Moves the vault's device key to `kind`, the same key.
    func moveDeviceKey(ofVaultAt vaultPath: String, to kind: DeviceKeyKind) async throws(VaultError)
    /// Creates a vault as `sesame init` does, choosing its device key.
    func createVault(at path: String?, deviceKey request: DeviceKeyRequest, passcode: SecretBytes, cost: ScryptCost) async throws(VaultError) -> NewVault
}

extension CommandMachine {
    /// Answers PAM with the password read from `--password-fd`; `nil`
    /// without it. The commands that read it never replace that presenter.
    var descriptorPresenter: DescriptorPasswordPresenter? {
        authenticators.presenter as? DescriptorPasswordPresenter
    }

    /// The password read from `--password-fd`, once: it answers an
    /// application password and the login-password question alike.
    var descriptorPassword: SecretBytes? { descriptorPresenter?.password }
}
