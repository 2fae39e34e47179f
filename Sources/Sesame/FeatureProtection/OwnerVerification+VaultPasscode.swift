extension OwnerVerification {
    /// The owner proves themselves with the vault's passcode after an
    /// enrolment change (SPEC C2): someone who only knows the login password
    /// can enrol a finger, but cannot open the vault by its passcode. The
    /// check is `Vault.open`'s own, so every guess is counted and delayed by
    /// the vault's attempt gate (SPEC E3, E5).
    ///
    /// - Parameters:
    ///   - path: The vault file.
    ///   - authenticators: The backends the vault is opened with (its
    ///     passcode guard, when the passcode is bound to hardware).
    ///   - ask: Asks for the passcode, given the reason; `nil` when the user
    ///     cancels or nobody can be asked.
    /// - Returns: The verification: `true` only when the passcode opens the vault.
    public static func vaultPasscode(
        vaultAt path: String, authenticators: Authenticators, ask: @escaping @Sendable (_ reason: String) async -> SecretBytes?
    ) -> OwnerVerification {
        .custom { reason in
            guard let passcode = await ask(reason) else { return false }
            do throws(VaultError) {
                _ = try await Vault.open(at: path, unlock: .passcode(passcode), authenticators: authenticators)
                return true
            } catch {
                return false
            }
        }
    }
}
