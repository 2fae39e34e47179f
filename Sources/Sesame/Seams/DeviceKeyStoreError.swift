/// An error of a ``DeviceKeyStore`` that knows what it means for a vault:
/// a store backed by hardware (a TPM) tells "this key is not here" (the
/// passcode or recovery key still opens the vault) from "the hardware is
/// locked out" or "the key is damaged", which a bare error cannot.
public protocol DeviceKeyStoreError: Error, Sendable {
    /// The same failure as a vault reports it: `locked` when the key cannot
    /// be had on this machine (another slot still opens the vault),
    /// `authFailed` with a `retryAfter` during a lockout, `damaged`,
    /// `insecurePermissions` or `ioError` otherwise.
    var vaultError: VaultError { get }
}
