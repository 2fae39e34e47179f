/// The crypto library failed to seal (it does not for a 256-bit key and a
/// random nonce, but it may say so, and nothing here crashes instead). Each
/// caller reports it as its own error at its edge: the vault as `ioError`.
struct CryptoFailure: Error, Sendable, CustomStringConvertible {
    /// What failed, and the library's own words.
    let description: String
}
