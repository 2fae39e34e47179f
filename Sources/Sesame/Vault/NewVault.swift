/// A vault a machine's `createVault(at:deviceKey:passcode:cost:)` (`LinuxMachine`'s on Linux) made,
/// and what it chose for it.
public struct NewVault: Sendable {
    /// The open vault.
    public let vault: Vault
    /// Its recovery key: show it to the owner once; Sesame keeps no copy.
    public let recoveryKey: RecoveryKey?
    /// Where its device key lives; `nil` for a passcode-only vault.
    public let deviceKey: DeviceKeyKind?
    /// Whether its passcode slot is bound to the TPM, which then checks the
    /// passcode and limits guesses itself (SPEC E3); always `false` where there is no TPM.
    public let passcodeIsBound: Bool
    /// What was chosen and why, one sentence each, for the person who asked
    /// (a fallback to a key file names the reason no TPM answered).
    public let notes: [String]

    /// A new vault and what was chosen for it; made by a machine's `createVault`.
    public init(vault: Vault, recoveryKey: RecoveryKey?, deviceKey: DeviceKeyKind?, passcodeIsBound: Bool, notes: [String]) {
        self.vault = vault
        self.recoveryKey = recoveryKey
        self.deviceKey = deviceKey
        self.passcodeIsBound = passcodeIsBound
        self.notes = notes
    }
}
