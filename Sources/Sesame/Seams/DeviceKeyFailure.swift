import Foundation

/// What a ``DeviceKeyStoreError`` means for whoever needs the key: a store
/// backed by hardware (a TPM) tells "this key is not here" (the passcode or
/// recovery key still opens the vault) from "the hardware is locked out" or
/// "the key is damaged", which a bare error cannot. The vault reports each
/// as its own status at its edge; the seam names none of the vault's types.
public enum DeviceKeyFailure: Sendable, Hashable {
    /// The key cannot be had on this machine (the hardware is missing, was
    /// cleared or replaced); another slot still opens the vault. The vault
    /// reports `locked`.
    case unreachable
    /// The hardware refuses tries until `retryAfter`. The vault reports
    /// `authFailed` with that time.
    case lockedOut(retryAfter: Date)
    /// The hardware refused the authorization value. The vault reports `authFailed`.
    case refused
    /// The stored key is not one this store made. The vault reports `damaged`.
    case damaged
    /// The key's file can be read or replaced by others. The vault reports
    /// `insecurePermissions`.
    case insecurePermissions
    /// Anything else. The vault reports `ioError`.
    case failed
}
