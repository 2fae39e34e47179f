#if os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

extension LinuxMachine {
    /// Whether a new vault's passcode slot is bound to the TPM, which then
    /// checks the passcode and limits guesses itself (SPEC E3): whenever the
    /// device key is sealed to it, and for a passcode-only vault whenever a
    /// TPM answers, as that is where offline guessing matters most. A key
    /// file alone leaves the passcode to scrypt.
    ///
    /// - Parameters:
    ///   - deviceKey: Where the new vault's device key lives; `nil` for a
    ///     passcode-only vault.
    ///   - tpmAnswers: Whether a TPM answers at ``tcti``.
    /// - Returns: Whether the passcode slot is bound.
    public static func bindsPasscode(ofNewVaultWith deviceKey: DeviceKeyKind?, tpmAnswers: Bool) -> Bool {
        deviceKey.map { $0 == .tpm } ?? tpmAnswers
    }

    /// ``bindsPasscode(ofNewVaultWith:tpmAnswers:)`` on this machine: the
    /// TPM is asked only for a passcode-only vault.
    ///
    /// - Parameter deviceKey: The new vault's device key; `nil` for none.
    /// - Returns: Whether the passcode slot is bound.
    public func bindsPasscode(ofNewVaultWith deviceKey: DeviceKeyKind?) async -> Bool {
        let tpmAnswers = deviceKey == nil ? await tpmUnavailability() == nil : false
        return Self.bindsPasscode(ofNewVaultWith: deviceKey, tpmAnswers: tpmAnswers)
    }

    /// Creates a vault with the device key `request` asks for, a passcode
    /// slot and a recovery key, as `sesame init` does, and says what it
    /// chose. With `DeviceKeyRequest.automatic` the key is sealed to the
    /// TPM when one answers and is a file otherwise. A key file already
    /// beside the vault (shared with another vault or feature protection) is
    /// moved into the TPM rather than replaced, so what it protects stays
    /// valid; a sealed key is never replaced by a file. The passcode slot is
    /// bound as ``bindsPasscode(ofNewVaultWith:)`` decides. The vault keeps
    /// its passcode's attempt record from its first moment.
    ///
    /// - Parameters:
    ///   - path: The vault file; ``defaultVaultPath()`` when `nil`.
    ///   - request: Which device key the vault gets.
    ///   - passcode: The vault passcode.
    ///   - cost: The passcode slot's scrypt cost.
    /// - Returns: The open vault, its recovery key, and what was chosen.
    /// - Throws: `VaultError`: `notAvailable` when the TPM is required and
    ///   none answers; `invalidArgument` when the vault exists or a key
    ///   file would replace a sealed key; what ``moveDeviceKey(ofVaultAt:to:)``
    ///   and `Vault.create` throw. Nothing is created then.
    public func createVault(
        at path: String? = nil, deviceKey request: DeviceKeyRequest, passcode: SecretBytes, cost: ScryptCost = .standard
    ) async throws(VaultError) -> NewVault {
        let path = path.map { Self.vaultPath($0, environment: environment) } ?? defaultVaultPath()
        var notes: [String] = []
        let deviceKey: DeviceKeyKind?
        switch request {
        case .none:
            deviceKey = nil
        case .required(.tpm):
            if let unavailable = await tpmUnavailability() {
                throw VaultError(.notAvailable, "\(unavailable); nothing was created")
            }
            deviceKey = .tpm
        case .required(.file):
            deviceKey = .file
        case .automatic:
            if await tpmUnavailability() != nil {
                deviceKey = .file
                // In the owner's words: the TCTI and the TPM's own error say
                // nothing to most owners; `sesame status` and
                // `init --device-key tpm` name them for those they help.
                notes.append("no TPM here, so the device key is kept in a 0600 file (`sesame status` says why there is no TPM)")
            } else {
                deviceKey = .tpm
            }
        }
        if let deviceKey {
            let current = deviceKeyKind(forVaultAt: path)
            if deviceKey == .file && current == .tpm {
                throw VaultError(.invalidArgument, """
                    the device key beside \(path) is sealed to the TPM; a key file would replace it: ask for the TPM, \
                    or move the key with `sesame device-key migrate --to file`. Nothing was created
                    """)
            }
            // Said before the vault exists, as a key file may then move into the TPM.
            notes.append("the device key is \(describeDeviceKey(deviceKey, forVaultAt: path))")
            if deviceKey == .tpm && current == .file && FileManager.default.fileExists(atPath: Vault.defaultDeviceKeyPath(forVaultAt: path)) {
                try await moveDeviceKey(ofVaultAt: path, to: .tpm)
            }
        }
        let binds = await bindsPasscode(ofNewVaultWith: deviceKey)
        if binds { notes.append("the passcode is checked by the TPM, which limits guesses itself") }
        var authenticators = self.authenticators
        authenticators.passcodeGuard = passcodeGuard(forVaultAt: path, bindsNewSlots: binds)
        let device: [KeySlot] = deviceKey.map { [.device(keyStore: deviceKeyStore($0, forVaultAt: path))] } ?? []
        let created = try await Vault.create(at: path, slots: device + [.passcode(passcode, cost: cost), .recovery], authenticators: authenticators)
        return NewVault(vault: created.vault, recoveryKey: created.recoveryKey, deviceKey: deviceKey, passcodeIsBound: binds, notes: notes)
    }
}
#endif
