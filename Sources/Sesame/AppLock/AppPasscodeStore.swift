/// Where each app's passcode record is kept: one self-contained record per
/// app identifier. The record holds only a salted scrypt hash, the attempt
/// history and settings; a store needs no crypto of its own.
///
/// A store that cannot authenticate what it returns (a plain file) lets
/// someone who can write it reset the attempt history; a vault-backed store
/// closes that gap.
public protocol AppPasscodeStore: Sendable {
    /// The record of `appIdentifier`, or `nil` when no passcode is set.
    ///
    /// - Parameter appIdentifier: The app's identifier.
    /// - Returns: The bytes last saved.
    /// - Throws: When the record cannot be read.
    func load(appIdentifier: String) async throws -> [UInt8]?

    /// Replaces the record of `appIdentifier` atomically.
    ///
    /// - Parameters:
    ///   - record: The record's bytes.
    ///   - appIdentifier: The app's identifier.
    /// - Throws: When the record cannot be written.
    func save(_ record: [UInt8], appIdentifier: String) async throws

    /// Deletes the record of `appIdentifier`; deleting a missing record succeeds.
    ///
    /// - Parameter appIdentifier: The app's identifier.
    /// - Throws: When the record cannot be deleted.
    func remove(appIdentifier: String) async throws
}
