/// Hardware that seals a vault's device key to this machine (a TPM on
/// Linux, the Secure Enclave's role): when a vault's key was sealed (its
/// ``Vault/sealedDeviceKeyPath(forVaultAt:)`` exists),
/// ``Vault/defaultDeviceKeyStore(forVaultAt:sealer:)`` asks the sealer for
/// the store of that file instead of using the 0600 key file. Set it as
/// ``Authenticators/deviceKeySealer``; SesameLinux's `LinuxMachine` does.
///
/// Without a sealer, a sealed key is never replaced by a new file key: the
/// vault reports it as locked (its passcode or recovery key still opens it).
public protocol DeviceKeySealer: Sendable {
    /// The store of the device key sealed in `path`. Never prompts; nothing
    /// is read until the store is asked.
    ///
    /// - Parameter path: The sealed key's file.
    /// - Returns: A store that unseals it, and seals a new key there.
    func sealedStore(at path: String) -> any DeviceKeyStore
}
