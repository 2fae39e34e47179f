#if !os(Linux)
import Foundation
import Sesame
import SesameApple

/// Off Linux the CLI's ``Machine`` is SesameApple's `AppleMachine`: the
/// library, not the CLI, chooses the backends, as `Machine` does on
/// Linux. This adds only what the commands read of a machine
/// (``CommandMachine``); there is no TPM here, and the answers say so.
extension AppleMachine: CommandMachine {
    /// Where the reuse window lives: here the attempt record, always available.
    struct ReuseWindowPlace {
        let location: String
        let available: Bool
    }

    var reuseWindow: ReuseWindowPlace { ReuseWindowPlace(location: reuseWindowLocation, available: true) }

    /// A new context on the account's backends. LocalAuthentication shows
    /// its own dialog for every scan, so, unlike Linux, no presenter is
    /// needed for the owner to see what is asked.
    func context() -> AuthenticationContext { AuthenticationContext(authenticators) }

    /// No PAM here: the system checks the passcode.
    var pamService: String { "none" }

    /// The machine, with no presenter yet: commands add theirs.
    static func command(pamService: String) throws -> AppleMachine {
        AppleMachine(appName: "sesame", localizedReason: "sesame needs to verify it is you")
    }

    /// No TPM on this platform.
    var tcti: String { "none" }

    /// No TPM on this platform.
    func tpmUnavailability() async -> String? { "there is no TPM support on this platform" }

    /// No hardware checks the passcode here: scrypt and the attempt record do.
    func vaultPasscodeGuard(forVaultAt vaultPath: String) -> (any PasscodeGuard)? { nil }

    /// The core's one choice of store.
    func deviceKeyStore(forVaultAt vaultPath: String) -> any DeviceKeyStore {
        Vault.defaultDeviceKeyStore(forVaultAt: vaultPath, sealer: authenticators.deviceKeySealer)
    }

    /// Only a key file exists here.
    func describeDeviceKey(_ kind: DeviceKeyKind, forVaultAt vaultPath: String) -> String {
        "in the file \(Vault.defaultDeviceKeyPath(forVaultAt: vaultPath))"
    }

    /// Only a key file exists here: it stays where it is.
    func moveDeviceKey(ofVaultAt vaultPath: String, to kind: DeviceKeyKind) async throws(VaultError) {
        guard kind == .file else { throw VaultError(.notAvailable, "there is no TPM support on this platform") }
    }

    /// The core's vault with a key file (none for ``DeviceKeyRequest/none``);
    /// the TPM cannot be required here.
    func createVault(at path: String?, deviceKey request: DeviceKeyRequest, passcode: SecretBytes, cost: ScryptCost) async throws(VaultError) -> NewVault {
        let path = path ?? Vault.defaultPath(environment: ProcessInfo.processInfo.environment)
        if request == .required(.tpm) { throw VaultError(.notAvailable, "there is no TPM support on this platform; nothing was created") }
        let deviceKey: DeviceKeyKind? = request == .none ? nil : .file
        let created = try await Vault.create(at: path, slots: (deviceKey == nil ? [] : [.device()]) + [.passcode(passcode, cost: cost), .recovery],
                                             authenticators: authenticators)
        return NewVault(vault: created.vault, recoveryKey: created.recoveryKey, deviceKey: deviceKey, passcodeIsBound: false,
                        notes: deviceKey.map { ["the device key is \(describeDeviceKey($0, forVaultAt: path))"] } ?? [])
    }
}
#endif
