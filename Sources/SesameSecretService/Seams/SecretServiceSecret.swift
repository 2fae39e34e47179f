import Sesame

/// A secret value and its content type (`text/plain`…), as items hold them.
public struct SecretServiceSecret: Sendable {
    /// Wiped when released.
    public var value: SecretBytes
    public var contentType: String

    /// - Parameters:
    ///   - value: The secret.
    ///   - contentType: A MIME type; `text/plain` when the client gave none.
    public init(value: SecretBytes, contentType: String) {
        self.value = value
        self.contentType = contentType
    }
}
