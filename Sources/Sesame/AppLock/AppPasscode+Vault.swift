/// The app passcode as the key of a vault's passcode slot, so a vault can be
/// protected by the passcode alone on a machine with no biometrics and no PAM
/// (issue 7). The passcode's attempt limits then guard the vault too.
extension AppPasscode {
    /// Checks `passcode` (counting failures, honouring delays) and opens the
    /// vault's passcode slot with it.
    ///
    /// Keep this passcode's record outside the vault it opens (a
    /// ``FileAppPasscodeStore``): a locked vault cannot hold the attempt
    /// history of its own lock.
    ///
    /// - Parameters:
    ///   - path: The vault file.
    ///   - passcode: What the user entered.
    ///   - authenticators: The backends the opened vault prompts with.
    /// - Returns: The unlocked vault.
    /// - Throws: ``AppPasscodeError/wrongPasscode``, ``AppPasscodeError/delayed(until:)``,
    ///   ``AppPasscodeError/erased`` or ``AppPasscodeError/notSet``; a vault
    ///   that refuses to open is ``AppPasscodeError/storage(_:)`` with its reason.
    public func openVault(at path: String, passcode: SecretBytes, authenticators: Authenticators) async throws(AppPasscodeError) -> Vault {
        // The same gate and counting as verify(_:), keeping the precise error.
        if case .failure(let error) = await gate.run({ await self.check(passcode) }) { throw error }
        do {
            return try await Vault.open(at: path, unlock: .passcode(passcode), authenticators: authenticators)
        } catch {
            throw .storage(error.description)
        }
    }

    /// Changes the passcode and re-wraps the vault's passcode slot with the
    /// new one, so both keep matching.
    ///
    /// - Parameters:
    ///   - current: The current passcode.
    ///   - new: The new passcode.
    ///   - vault: The unlocked vault whose slot follows the passcode.
    ///   - cost: The scrypt cost for the vault's slot.
    /// - Throws: What ``change(from:to:)`` throws, or ``AppPasscodeError/storage(_:)``
    ///   when the vault's slot cannot be written (the passcode is then already changed).
    public func change(from current: SecretBytes, to new: SecretBytes, vault: Vault, cost: ScryptCost = .standard) async throws(AppPasscodeError) {
        try await change(from: current, to: new)
        do {
            try await vault.setPasscodeSlot(new, cost: cost)
        } catch {
            throw .storage("the passcode changed but the vault's passcode slot could not be updated: \(error.description)")
        }
    }
}
