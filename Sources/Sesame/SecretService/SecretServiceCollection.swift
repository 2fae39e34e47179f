#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A collection of the Secret Service view (SPEC D10): a namespace of items
/// with a label, stored sealed in the vault (SPEC D9).
///
/// ``Vault/collections()`` lists them without prompting.
public struct SecretServiceCollection: Sendable, Hashable {
    /// Its stable identifier: 16 lowercase hex digits, usable as a D-Bus
    /// object-path element. Never changes, whatever its label.
    public let id: String
    /// Its label for people ("Login" for the collection the `default`
    /// alias creates). Text from outside: escape it before showing it.
    public let label: String
    /// When it was created.
    public let created: Date
    /// When it or its set of items last changed.
    public let modified: Date
}
