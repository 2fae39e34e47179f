/// An ``AppPasscodeStore`` of 0600 files, one per app, in a 0700 directory
/// (default `$XDG_CONFIG_HOME/sesame/passcodes/`).
public struct FileAppPasscodeStore: AppPasscodeStore {
    private let files: PerAppRecordFiles

    /// The directory holding the records.
    public var directory: String { files.directory }

    /// Creates a store.
    ///
    /// - Parameter directory: Where the records live, e.g. from ``defaultDirectory(environment:)``.
    public init(directory: String) {
        files = PerAppRecordFiles(directory: directory, fileExtension: "passcode") { AppPasscodeError.storage($0.description) }
    }

    /// `$XDG_CONFIG_HOME/sesame/passcodes`, or `~/.config/sesame/passcodes`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The default directory.
    public static func defaultDirectory(environment: [String: String]) -> String {
        PerAppRecordFiles.defaultDirectory("passcodes", environment: environment)
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
