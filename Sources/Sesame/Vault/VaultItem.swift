#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An item's attributes: everything but its value (SPEC D2).
///
/// ``VaultItems/list(service:)`` returns these without decrypting anything, so it
/// never prompts.
public struct VaultItem: Sendable, Hashable {
    /// The service the item belongs to, e.g. `"com.example.api"`.
    public let service: String
    /// The item's name within the service.
    public let account: String
    /// A label for people, if any.
    public let label: String?
    /// When it may be read and whether it may leave the device.
    public let accessibility: ItemAccessibility
    /// Who may read it.
    public let accessControl: AccessControl
    /// When it was added.
    public let created: Date
    /// When its value last changed.
    public let modified: Date
}
