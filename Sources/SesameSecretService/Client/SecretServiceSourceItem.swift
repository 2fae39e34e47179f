import Sesame

/// One item read from another Secret Service provider, its secret included,
/// for `sesame import --from-secret-service`.
package struct SecretServiceSourceItem: Sendable {
    /// Its object path on the provider; for reports.
    package var path: String
    /// Its label, as the provider gave it (outside text: escape it to show it).
    package var label: String
    /// Its lookup attributes, `xdg:schema` included.
    package var attributes: [String: String]
    /// The secret's content type (`text/plain` when the provider gave none).
    package var contentType: String
    /// The secret, never printed.
    package var secret: SecretBytes
    /// When it was created and last modified, seconds since 1970, as the
    /// provider said (unchecked: the vault checks dates from outside).
    package var created: UInt64
    package var modified: UInt64
}
