/// Hardware that checks a passcode-derived value and limits guesses itself
/// (a TPM's dictionary-attack protection; iOS's Secure Enclave): a vault's
/// passcode slot bound to it opens only with a secret the hardware releases
/// for the right value, so a copied vault cannot be guessed offline and
/// guesses on the machine are limited even when every file is deleted or
/// rolled back. Set it as ``Authenticators/passcodeGuard``.
///
/// The vault's own attempt gate (SPEC E3) stays in front: an attempt is
/// counted before the guard is asked.
public protocol PasscodeGuard: Sendable {
    /// Binds a new passcode slot. Never prompts.
    ///
    /// - Parameters:
    ///   - slot: The slot's identifier (its salt).
    ///   - value: 32 bytes derived from the passcode; never the passcode.
    /// - Returns: A fresh secret the hardware will release only for `value`,
    ///   or `nil` when this guard binds nothing (the slot then rests on scrypt alone).
    /// - Throws: When binding fails; the slot is then not written.
    func bind(slot: [UInt8], value: SecretBytes) async throws -> SecretBytes?

    /// Asks the hardware for a slot's secret. Never prompts.
    ///
    /// - Parameters:
    ///   - slot: The slot's identifier (its salt).
    ///   - value: 32 bytes derived from the passcode being tried.
    /// - Returns: ``PasscodeGuardAnswer``.
    /// - Throws: A ``DeviceKeyStoreError`` (e.g. the hardware is locked out,
    ///   with when it lifts) or any error; the attempt stays counted.
    func secret(slot: [UInt8], value: SecretBytes) async throws -> PasscodeGuardAnswer
}
