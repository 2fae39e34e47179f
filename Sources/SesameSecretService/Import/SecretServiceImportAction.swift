import Sesame

/// What an import does with one item of another provider, given the
/// vault's items of equal attributes in the target collection: copy it,
/// copy it in place of an earlier copy, or keep the owner's protected item
/// as it is (SPEC D11: an import never lowers a protection).
public enum SecretServiceImportAction: Sendable, Hashable {
    /// No equal item: the source's item is added.
    case copy
    /// Only equal items open to anyone (earlier copies): the source's item
    /// takes their place, so a second import does not add another.
    case replace
    /// An equal item the owner protected: it is kept, the source's value is
    /// not copied. Its label and access control say which, for the report.
    case keep(label: String, accessControl: AccessControl)

    /// The action for a source item with `attributes`.
    ///
    /// - Parameters:
    ///   - attributes: The source item's attributes.
    ///   - candidates: The vault's items found by those attributes in the
    ///     target collection: their label, attributes and access control.
    /// - Returns: The action; items equal only once libsecret's generic
    ///   schema name is set aside (``withoutGenericSchema(_:)``) count as equal.
    public static func action(
        forItemWith attributes: [String: String],
        candidates: [(label: String, attributes: [String: String], accessControl: AccessControl)]
    ) -> SecretServiceImportAction {
        let attributes = withoutGenericSchema(attributes)
        let existing = candidates.filter { withoutGenericSchema($0.attributes) == attributes }
        if let protected = existing.first(where: { !$0.accessControl.userFactors.isEmpty }) {
            return .keep(label: protected.label, accessControl: protected.accessControl)
        }
        return existing.isEmpty ? .copy : .replace
    }

    /// `attributes` without `xdg:schema` when it names libsecret's generic
    /// schema, which is what an item stored without a schema has:
    /// gnome-keyring reports it for such an item once it has reloaded its
    /// file, and libsecret means the same item either way.
    ///
    /// - Parameter attributes: An item's attributes.
    /// - Returns: The attributes an import compares.
    public static func withoutGenericSchema(_ attributes: [String: String]) -> [String: String] {
        attributes["xdg:schema"] == "org.freedesktop.Secret.Generic" ? attributes.filter { $0.key != "xdg:schema" } : attributes
    }
}
