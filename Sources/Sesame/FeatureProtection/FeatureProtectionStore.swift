/// Where each app's sealed feature-protection record is kept (SPEC B6): one
/// record per app identifier. The store holds opaque sealed bytes; sealing
/// and the tamper check are Sesame's, so a store needs no crypto.
public protocol FeatureProtectionStore: Sendable {
    /// The sealed record of `appIdentifier`, or `nil` when none was saved.
    ///
    /// - Parameter appIdentifier: The app's identifier.
    /// - Returns: The bytes last saved.
    /// - Throws: When the record cannot be read.
    func load(appIdentifier: String) async throws -> [UInt8]?

    /// Replaces the sealed record of `appIdentifier` atomically.
    ///
    /// - Parameters:
    ///   - record: The sealed bytes.
    ///   - appIdentifier: The app's identifier.
    /// - Throws: When the record cannot be written.
    func save(_ record: [UInt8], appIdentifier: String) async throws
}
