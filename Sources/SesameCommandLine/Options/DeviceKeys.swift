import ArgumentParser
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// `--device-key tpm|file` and the messages about it. Which key a vault has,
/// its store and the move between kinds are the library's
/// (`LinuxMachine`, `Vault.defaultDeviceKeyStore(forVaultAt:sealer:)`);
/// this only parses and words.
enum DeviceKeys {
    enum Kind: String, ExpressibleByArgument, CaseIterable, Encodable {
        case tpm, file
    }

    /// The TCTI the TPM is reached through (`SESAME_TPM_TCTI`).
    static func tcti(_ machine: LinuxMachine) -> String {
        #if os(Linux)
        machine.tcti
        #else
        "none"
        #endif
    }

    /// Where the vault's device key lives now.
    static func kind(_ machine: LinuxMachine, forVaultAt vault: String) -> Kind {
        Vault.deviceKeyIsSealed(forVaultAt: vault) ? .tpm : .file
    }

    /// The store the vault's device key is in now: the library's one choice.
    static func store(_ machine: LinuxMachine, forVaultAt vault: String) -> any DeviceKeyStore {
        Vault.defaultDeviceKeyStore(forVaultAt: vault, sealer: machine.authenticators.deviceKeySealer)
    }

    /// The vault passcode's guard (the library's): new slots are bound when
    /// `binds`, else when the passcode was bound before or the key is sealed.
    static func passcodeGuard(_ machine: LinuxMachine, forVaultAt vault: String, binds: Bool? = nil) -> (any PasscodeGuard)? {
        #if os(Linux)
        machine.passcodeGuard(forVaultAt: vault, bindsNewSlots: binds)
        #else
        nil
        #endif
    }

    /// Why no TPM can be used, or `nil` when one answers.
    static func tpmUnavailability(_ machine: LinuxMachine) async -> String? {
        #if os(Linux)
        await machine.tpmUnavailability()
        #else
        "there is no TPM support on this platform"
        #endif
    }

    /// Moves the vault's device key to `kind` (the library's move).
    ///
    /// - Throws: ``CommandFailure``.
    static func move(_ machine: LinuxMachine, to kind: Kind, forVaultAt vault: String) async throws(CommandFailure) {
        #if os(Linux)
        do throws(VaultError) {
            try await machine.moveDeviceKey(ofVaultAt: vault, to: DeviceKeyKind(kind))
        } catch {
            throw CommandFailure(error)
        }
        #else
        guard kind == .file else { throw CommandFailure(status: .notAvailable, message: "there is no TPM support on this platform") }
        #endif
    }

    /// Whether a new vault's passcode slot is bound to the TPM (the
    /// library's choice, `LinuxMachine.bindsPasscode(ofNewVaultWith:)`).
    static func bindsPasscode(_ machine: LinuxMachine, ofNewVaultWith kind: Kind?) async -> Bool {
        #if os(Linux)
        await machine.bindsPasscode(ofNewVaultWith: kind.map(DeviceKeyKind.init))
        #else
        false
        #endif
    }

    /// Creates the vault as the library does
    /// (`LinuxMachine.createVault(at:deviceKey:passcode:cost:bindsPasscode:)`).
    static func createVault(
        _ machine: LinuxMachine, at path: String, deviceKey kind: Kind?, passcode: SecretBytes, cost: ScryptCost, bindsPasscode: Bool
    ) async throws(VaultError) -> (vault: Vault, recoveryKey: RecoveryKey?) {
        #if os(Linux)
        try await machine.createVault(at: path, deviceKey: kind.map(DeviceKeyKind.init), passcode: passcode, cost: cost,
                                      bindsPasscode: bindsPasscode)
        #else
        // Not Linux: the core's key file, no TPM.
        try await Vault.create(at: path, slots: (kind == nil ? [] : [.device()]) + [.passcode(passcode, cost: cost), .recovery],
                               authenticators: machine.authenticators)
        #endif
    }

    /// "sealed to the TPM (…)" or "in the file …", for messages and `status`.
    static func describe(_ machine: LinuxMachine, _ kind: Kind, forVaultAt vault: String) -> String {
        #if os(Linux)
        machine.describeDeviceKey(DeviceKeyKind(kind), forVaultAt: vault)
        #else
        "in the file \(Vault.defaultDeviceKeyPath(forVaultAt: vault))"
        #endif
    }
}

#if os(Linux)
extension DeviceKeyKind {
    init(_ kind: DeviceKeys.Kind) {
        switch kind {
        case .tpm: self = .tpm
        case .file: self = .file
        }
    }
}
#endif
