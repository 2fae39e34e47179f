import Sesame

/// An `AppRecordStore` in memory, for app passcodes or feature protection
/// alike, whose stored bytes a test can read and edit to play an attacker
/// with access to the disk. Two `AppPasscode` (or `FeatureProtection`)
/// values on one store model an app restart.
public final class InMemoryAppRecordStore: AppRecordStore {
    private let records = Locked<[String: [UInt8]]>([:])

    /// Creates an empty store.
    public init() {}

    public func load(appIdentifier: String) async throws -> [UInt8]? {
        records.withLock { $0[appIdentifier] }
    }

    public func save(_ record: [UInt8], appIdentifier: String) async throws {
        records.withLock { $0[appIdentifier] = record }
    }

    public func update(appIdentifier: String, _ change: @escaping @Sendable (inout [UInt8]?) -> Void) async throws {
        records.withLock { change(&$0[appIdentifier]) }
    }

    public func remove(appIdentifier: String) async throws {
        records.withLock { $0[appIdentifier] = nil }
    }

    /// The bytes as stored.
    ///
    /// - Parameter appIdentifier: The app.
    /// - Returns: The bytes, or `nil`.
    public func storedBytes(for appIdentifier: String) -> [UInt8]? {
        records.withLock { $0[appIdentifier] }
    }

    /// Overwrites the stored bytes, as an attacker editing the file would.
    ///
    /// - Parameters:
    ///   - bytes: The new bytes.
    ///   - appIdentifier: The app.
    public func overwrite(_ bytes: [UInt8], for appIdentifier: String) {
        records.withLock { $0[appIdentifier] = bytes }
    }
}
