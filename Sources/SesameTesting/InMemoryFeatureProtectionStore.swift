import Sesame

/// A `FeatureProtectionStore` in memory, whose stored bytes a test
/// can read and edit to play an attacker with access to the disk.
public final class InMemoryFeatureProtectionStore: FeatureProtectionStore {
    private let records = Locked<[String: [UInt8]]>([:])

    /// Creates an empty store.
    public init() {}

    public func load(appIdentifier: String) async throws -> [UInt8]? {
        records.withLock { $0[appIdentifier] }
    }

    public func save(_ record: [UInt8], appIdentifier: String) async throws {
        records.withLock { $0[appIdentifier] = record }
    }

    /// The sealed bytes as stored, for tamper tests.
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
