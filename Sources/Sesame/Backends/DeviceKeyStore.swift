/// Keeps this device's secret key outside the files it protects, so that a
/// copied record or vault is useless elsewhere (ARCHITECTURE: a 0600 file by
/// default, TPM2 or the Secure Enclave later).
public protocol DeviceKeyStore: Sendable {
    /// The device key, created on first use. Never prompts.
    ///
    /// - Returns: 32 secret bytes, the same on every call on this device.
    /// - Throws: When the key cannot be read or created; callers fail closed.
    func deviceKey() async throws -> SecretBytes
}
