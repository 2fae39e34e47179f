/// Where each app's records are kept: one self-contained record per app
/// identifier, for one ``AppRecordKind`` (an app passcode's record, SPEC E3,
/// or a feature-protection record, SPEC B6). The records are opaque bytes:
/// a passcode record holds only a salted scrypt hash, the attempt history and
/// settings, a feature-protection record is sealed by Sesame, so a store
/// needs no crypto of its own.
///
/// A store that cannot authenticate what it returns (a plain file) lets
/// someone who can write it reset the attempt history or switch protection
/// off; a vault-backed store (``VaultAppRecordStore``) closes that gap.
public protocol AppRecordStore: Sendable {
    /// The record of `appIdentifier`, or `nil` when none was saved.
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

    /// Changes the record of `appIdentifier` atomically, across threads and
    /// processes: no other reader or writer runs between reading and writing
    /// it. The attempt gate counts wrong passcodes through it (SPEC E5), so a
    /// store that only loads and saves would let many processes guess at once.
    ///
    /// - Parameters:
    ///   - appIdentifier: The app's identifier.
    ///   - change: Edits the bytes in place; `nil` means absent (set it to
    ///     `nil` to delete the record).
    /// - Throws: When the record cannot be read or written.
    func update(appIdentifier: String, _ change: @escaping @Sendable (inout [UInt8]?) -> Void) async throws

    /// Deletes the record of `appIdentifier`; deleting a missing record succeeds.
    ///
    /// - Parameter appIdentifier: The app's identifier.
    /// - Throws: When the record cannot be deleted.
    func remove(appIdentifier: String) async throws
}
