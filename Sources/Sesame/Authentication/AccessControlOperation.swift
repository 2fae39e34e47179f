/// What an ``AuthenticationContext/evaluateAccessControl(_:operation:localizedReason:)``
/// call authenticates for (SPEC A12).
public enum AccessControlOperation: String, Sendable, Hashable, Codable, CaseIterable {
    /// Creating an item protected by the access control.
    case createItem
    /// Reading or using an item.
    case useItem
    /// Creating a key.
    case createKey
    /// Signing with a private key.
    case useKeySign
    /// Decrypting with a private key.
    case useKeyDecrypt
    /// A key exchange with a private key.
    case useKeyKeyExchange
}
