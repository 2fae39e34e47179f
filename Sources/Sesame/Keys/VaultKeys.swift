/// A vault's protected keys: private keys made or imported into the vault
/// that sign, decrypt and agree under an access control and never leave it
/// (SPEC D7, D8: the Secure Enclave model). Reached as ``Vault/keys``; a
/// value that only names its vault, so it costs nothing to make and is safe
/// to pass between tasks.
///
/// ```swift
/// let key = try await vault.keys.create(service: "ssh", name: "laptop", algorithm: .p256,
///                                       accessControl: .userPresence)
/// let signature = try await vault.keys.sign(message, withKey: "laptop", service: "ssh",
///                                           operationPrompt: "Sign in to the server")
/// ```
public struct VaultKeys: Sendable {
    /// The vault the keys are in.
    public let vault: Vault
}

extension Vault {
    /// The vault's protected keys: create, import, sign, decrypt, agree, list, delete.
    public var keys: VaultKeys { VaultKeys(vault: self) }
}
