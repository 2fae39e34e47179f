extension Vault {
    /// Opens the vault by its device key and, only when that cannot open it
    /// (a passcode-only vault, a key file gone, a sealer that refuses the
    /// key), by the vault passcode `passcode` supplies: one order for every
    /// caller, whoever asks the owner. Wrong passcodes are counted and
    /// delayed by the vault itself (SPEC E3, E5).
    ///
    /// Never prompts by itself: the owner is asked only inside `passcode`.
    ///
    /// - Parameters:
    ///   - path: The vault file.
    ///   - deviceKeyStore: Where the device key is kept; `nil` for the
    ///     vault's own (``defaultDeviceKeyStore(forVaultAt:sealer:)``).
    ///   - authenticators: The authenticators the vault keeps.
    ///   - passcode: Supplies the vault passcode, given why the device key
    ///     did not open the vault; called at most once, and never when the
    ///     device key opens it.
    ///   - failure: Turns the vault's error into the caller's.
    /// - Returns: The open vault.
    /// - Throws: What `passcode` throws, unchanged, or the vault's
    ///   ``VaultError`` through `failure`.
    public static func open<Failure: Error>(
        at path: String,
        deviceKeyStore: (any DeviceKeyStore)? = nil,
        authenticators: Authenticators,
        passcode: (_ locked: VaultError) async throws(Failure) -> SecretBytes,
        failure: (VaultError) -> Failure
    ) async throws(Failure) -> Vault {
        let locked: VaultError
        do throws(VaultError) {
            return try await open(at: path, unlock: .device(keyStore: deviceKeyStore), authenticators: authenticators)
        } catch where error.status == .locked {
            // The passcode slot still opens it.
            locked = error
        } catch {
            throw failure(error)
        }
        let passcode = try await passcode(locked)
        do throws(VaultError) {
            return try await open(at: path, unlock: .passcode(passcode), authenticators: authenticators)
        } catch {
            throw failure(error)
        }
    }
}
