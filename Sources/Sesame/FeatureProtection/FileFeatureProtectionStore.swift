/// A ``FeatureProtectionStore`` of 0600 files, one per app, in a 0700
/// directory (default `$XDG_CONFIG_HOME/sesame/features/`).
public struct FileFeatureProtectionStore: FeatureProtectionStore {
    /// The directory holding the records.
    public let directory: String

    /// Creates a store.
    ///
    /// - Parameter directory: Where the records live, e.g. from ``defaultDirectory(environment:)``.
    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CONFIG_HOME/sesame/features`, or `~/.config/sesame/features`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The default directory.
    public static func defaultDirectory(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/sesame/features"
        }
        return (environment["HOME"] ?? "/") + "/.config/sesame/features"
    }

    public func load(appIdentifier: String) async throws -> [UInt8]? {
        let file = try self.file(for: appIdentifier)
        guard file.directoryExists else { return nil }
        return try file.withExclusiveLock { try file.read() }
    }

    public func save(_ record: [UInt8], appIdentifier: String) async throws {
        let file = try self.file(for: appIdentifier)
        try file.withExclusiveLock { try file.write(record) }
    }

    private func file(for appIdentifier: String) throws -> PrivateFile {
        // The identifier names a file: letters, digits, dot, dash, underscore only.
        let allowed = appIdentifier.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        guard allowed, !appIdentifier.isEmpty, !appIdentifier.hasPrefix(".") else {
            throw FeatureProtectionError.storage("'\(appIdentifier)' is not a valid app identifier (use letters, digits, '.', '-', '_')")
        }
        return PrivateFile(path: directory + "/" + appIdentifier + ".features")
    }
}
