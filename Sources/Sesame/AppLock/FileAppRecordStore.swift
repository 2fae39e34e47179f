/// An ``AppRecordStore`` of 0600 files, one per app, in a 0700 directory
/// (by default `$XDG_CONFIG_HOME/sesame/passcodes/` for app passcodes and
/// `$XDG_CONFIG_HOME/sesame/features/` for feature protection).
public struct FileAppRecordStore: AppRecordStore {
    private let files: PerAppRecordFiles
    /// Which records this store keeps.
    public let kind: AppRecordKind

    /// The directory holding the records.
    public var directory: String { files.directory }

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - directory: Where the records live, e.g. from ``defaultDirectory(for:environment:)``.
    ///   - kind: The records kept; it names their files' extension and the
    ///     error a bad app identifier throws.
    public init(directory: String, kind: AppRecordKind) {
        self.kind = kind
        files = PerAppRecordFiles(directory: directory, fileExtension: kind.fileExtension) { kind.storageError($0.description) }
    }

    /// `$XDG_CONFIG_HOME/sesame/<passcodes|features>`, or the same under `~/.config`.
    ///
    /// - Parameters:
    ///   - kind: The records kept.
    ///   - environment: The process environment.
    /// - Returns: The default directory.
    public static func defaultDirectory(for kind: AppRecordKind, environment: [String: String]) -> String {
        PerAppRecordFiles.defaultDirectory(kind.directoryName, environment: environment)
    }

    public func load(appIdentifier: String) async throws -> [UInt8]? {
        try files.load(appIdentifier)
    }

    public func save(_ record: [UInt8], appIdentifier: String) async throws {
        try files.save(record, appIdentifier)
    }

    public func update(appIdentifier: String, _ change: @escaping @Sendable (inout [UInt8]?) -> Void) async throws {
        try files.update(appIdentifier, change)
    }

    public func remove(appIdentifier: String) async throws {
        try files.remove(appIdentifier)
    }
}
