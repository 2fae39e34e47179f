#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One private file per app identifier in a directory: the shared mechanics
/// of the file-backed feature-protection and app-passcode stores.
package struct PerAppRecordFiles: Sendable {
    /// Why an app identifier cannot name a file.
    package struct InvalidIdentifier: Error, Sendable, CustomStringConvertible {
        package let identifier: String
        package var description: String {
            "'\(identifier)' is not a valid app identifier (use letters, digits, '.', '-', '_')"
        }
    }

    package let directory: String
    package let fileExtension: String
    /// The owning store's own error for an identifier that cannot name a file.
    private let invalidIdentifier: @Sendable (InvalidIdentifier) -> any Error

    package init(directory: String, fileExtension: String, invalidIdentifier: @escaping @Sendable (InvalidIdentifier) -> any Error) {
        self.directory = directory
        self.fileExtension = fileExtension
        self.invalidIdentifier = invalidIdentifier
    }

    /// `$XDG_CONFIG_HOME/sesame/<name>`, or `~/.config/sesame/<name>`.
    package static func defaultDirectory(_ name: String, environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/sesame/" + name
        }
        return (environment["HOME"] ?? "/") + "/.config/sesame/" + name
    }

    package func load(_ appIdentifier: String) throws -> [UInt8]? {
        let file = try self.file(appIdentifier)
        guard file.directoryExists else { return nil }
        return try file.withExclusiveLock { try file.read() }
    }

    package func save(_ record: [UInt8], _ appIdentifier: String) throws {
        let file = try self.file(appIdentifier)
        try file.withExclusiveLock { try file.write(record) }
    }

    /// Reads, changes and writes (or removes) the record under its lock.
    package func update(_ appIdentifier: String, _ change: (inout [UInt8]?) -> Void) throws {
        let file = try self.file(appIdentifier)
        try file.withExclusiveLock {
            var bytes = try file.read()
            let before = bytes
            change(&bytes)
            guard bytes != before else { return }
            if let bytes {
                try file.write(bytes)
            } else if unlink(file.path) != 0 && errno != ENOENT {
                throw PrivateFile.Failure.systemCall("unlink", path: file.path, errno: errno)
            }
        }
    }

    package func remove(_ appIdentifier: String) throws {
        let file = try self.file(appIdentifier)
        guard file.directoryExists else { return }
        try file.withExclusiveLock {
            if unlink(file.path) != 0 && errno != ENOENT {
                throw PrivateFile.Failure.systemCall("unlink", path: file.path, errno: errno)
            }
        }
    }

    private func file(_ appIdentifier: String) throws -> PrivateFile {
        // The identifier names a file: letters, digits, dot, dash, underscore only.
        let allowed = appIdentifier.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        guard allowed, !appIdentifier.isEmpty, !appIdentifier.hasPrefix(".") else {
            throw invalidIdentifier(InvalidIdentifier(identifier: appIdentifier))
        }
        return PrivateFile(path: directory + "/" + appIdentifier + "." + fileExtension)
    }
}
