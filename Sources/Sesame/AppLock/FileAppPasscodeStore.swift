#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An ``AppPasscodeStore`` of 0600 files, one per app, in a 0700 directory
/// (default `$XDG_CONFIG_HOME/sesame/passcodes/`).
public struct FileAppPasscodeStore: AppPasscodeStore {
    /// The directory holding the records.
    public let directory: String

    /// Creates a store.
    ///
    /// - Parameter directory: Where the records live, e.g. from ``defaultDirectory(environment:)``.
    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CONFIG_HOME/sesame/passcodes`, or `~/.config/sesame/passcodes`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The default directory.
    public static func defaultDirectory(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/sesame/passcodes"
        }
        return (environment["HOME"] ?? "/") + "/.config/sesame/passcodes"
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

    public func remove(appIdentifier: String) async throws {
        let file = try self.file(for: appIdentifier)
        guard file.directoryExists else { return }
        try file.withExclusiveLock {
            if unlink(file.path) != 0 && errno != ENOENT {
                throw PrivateFile.Failure.systemCall("unlink", path: file.path, errno: errno)
            }
        }
    }

    private func file(for appIdentifier: String) throws(AppPasscodeError) -> PrivateFile {
        // The identifier names a file: letters, digits, dot, dash, underscore only.
        let allowed = appIdentifier.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        guard allowed, !appIdentifier.isEmpty, !appIdentifier.hasPrefix(".") else {
            throw .storage("'\(appIdentifier)' is not a valid app identifier (use letters, digits, '.', '-', '_')")
        }
        return PrivateFile(path: directory + "/" + appIdentifier + ".passcode")
    }
}
