#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A collection (SPEC D10): a namespace of attributed items with a label,
/// stored sealed in the vault (SPEC D9).
///
/// ``VaultCollections/list()`` lists them without prompting.
public struct ItemCollection: Sendable, Hashable {
    /// Its stable identifier: 16 random lowercase hex digits, so it names
    /// nothing and fits any path or name a client builds from it. Never
    /// changes, whatever its label.
    public let id: String
    /// Its label for people. Text from outside: escape it before showing it.
    public let label: String
    /// When it was created.
    public let created: Date
    /// When it or its set of items last changed.
    public let modified: Date
}
