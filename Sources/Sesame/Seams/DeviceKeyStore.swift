/// Keeps this device's secret key outside the files it protects, so that a
/// copied record or vault is useless elsewhere (ARCHITECTURE: a 0600 file by
/// default, ``FileDeviceKeyStore``; sealed to the TPM, SesameLinux's
/// `TPMDeviceKeyStore`). The vault's device slot and feature protection both
/// go through this seam. A store whose failures mean different things to a
/// vault throws a ``DeviceKeyStoreError``.
public protocol DeviceKeyStore: Sendable {
    /// The device key, created on first use. Never prompts.
    ///
    /// - Returns: 32 secret bytes, the same on every call on this device.
    /// - Throws: When the key cannot be read or created; callers fail closed.
    func deviceKey() async throws -> SecretBytes

    /// The device key if one exists. Never prompts, never creates or writes
    /// anything.
    ///
    /// - Returns: The 32 bytes, or `nil` when this device has no key yet.
    /// - Throws: When a key exists but cannot be read; callers fail closed.
    func existingDeviceKey() async throws -> SecretBytes?
}
