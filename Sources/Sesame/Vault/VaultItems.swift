/// A vault's items: secrets a person or an app stored by service and
/// account, each under its own access control (SPEC D2–D6). Reached as
/// ``Vault/items``; a value that only names its vault, so it costs nothing
/// to make and is safe to pass between tasks.
///
/// ```swift
/// try await vault.items.add(SecretBytes(utf8: token), service: "api", account: "me",
///                           accessControl: .biometryCurrentSet)
/// let value = try await vault.items.read(service: "api", account: "me", operationPrompt: "Sign in")
/// ```
public struct VaultItems: Sendable {
    /// The vault the items are in.
    public let vault: Vault
}

extension Vault {
    /// No user check: the item opens whenever the vault is unlocked.
    public static let noAccessControl = try! AccessControl([])  // try!: only contradictory biometry flags are refused, and there are none

    /// The largest value an item holds: 16 MiB. Far more than any password,
    /// token or key file; a larger value is refused by name (`invalidArgument`)
    /// before anything is asked or written, whichever API or command stores it.
    public static let maximumValueSize = 16 << 20

    /// Refuses a value over ``maximumValueSize``, naming what it was for.
    static func checkValueSize(_ value: SecretBytes, of name: String) throws(VaultError) {
        guard value.count <= maximumValueSize else {
            throw VaultError(.invalidArgument, "The value of \(name) is \(value.count) bytes; at most \(maximumValueSize) bytes (16 MiB) are stored")
        }
    }

    /// The vault's items: add, read, update, delete, list.
    public var items: VaultItems { VaultItems(vault: self) }
}
