/// How a keychain call may authenticate the user (SPEC D3).
public enum KeychainAuthentication: Sendable {
    /// The keychain shows its own prompt with this reason, if the item needs
    /// one. The call blocks until the prompt ends; the store runs it off the
    /// main actor.
    case prompt(String)
    /// Never prompt: items that need authentication are skipped
    /// (`kSecUseAuthenticationUISkip`), so they read as not found.
    case skipUI
    /// Use a context that already authenticated; no second prompt.
    case context(KeychainContext)
}
