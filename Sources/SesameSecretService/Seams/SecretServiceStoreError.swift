/// What a ``SecretServiceStore`` throws; the server turns each into the
/// Secret Service's D-Bus error.
public enum SecretServiceStoreError: Error, Sendable, Hashable {
    /// `org.freedesktop.Secret.Error.NoSuchObject`.
    case noSuchCollection(String)
    /// `org.freedesktop.Secret.Error.NoSuchObject`.
    case noSuchItem(SecretServiceItemID)
    /// `org.freedesktop.Secret.Error.IsLocked`: the item needs authentication.
    case locked(SecretServiceItemID)
    /// The owner or the caller gave up authenticating.
    case cancelled
    /// Anything else, with a reason safe to show the caller (no secret).
    case failed(String)
}
