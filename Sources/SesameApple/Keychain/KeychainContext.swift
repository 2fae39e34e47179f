/// An `LAContext` to hand to keychain calls (`kSecUseAuthenticationContext`):
/// authenticate once, for example with
/// `evaluateAccessControl`, then read without a second prompt (SPEC A12, D3).
public final class KeychainContext: Sendable {
    package let context: any LAContextProtocol

    /// Wraps a context.
    ///
    /// - Parameter context: The context.
    package init(_ context: any LAContextProtocol) {
        self.context = context
    }
}
