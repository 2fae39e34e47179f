/// An item of another provider that was not read, and why (it stayed
/// locked, or the provider refused its secret).
package struct SecretServiceSourceSkip: Sendable {
    /// Its object path on the provider.
    package var path: String
    /// Its label when it could be read, else empty.
    package var label: String
    /// Why it was skipped, for people.
    package var reason: String
}
