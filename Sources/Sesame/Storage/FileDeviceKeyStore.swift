#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``DeviceKeyStore`` in a 0600 file: 32 random bytes created on first use.
///
/// It defends against a copied record or vault being opened on another
/// machine; it does not defend against code running as your user, which can
/// read this file as you can.
public final class FileDeviceKeyStore: DeviceKeyStore {
    /// Why the key cannot be used.
    public enum KeyError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The key file is not 32 bytes: damaged or not Sesame's.
        case damaged(path: String)
        /// The file could not be used; the message says why.
        case system(String)

        public var description: String {
            switch self {
            case .damaged(let path): "\(path) is not a Sesame device key (damaged?); Sesame will not replace it"
            case .system(let message): message
            }
        }
    }

    private let file: PrivateFile

    /// Creates a store.
    ///
    /// - Parameter path: The key file, e.g. from ``defaultPath(environment:)``.
    public init(path: String) {
        file = PrivateFile(path: path)
    }

    /// `$XDG_DATA_HOME/sesame/device.key`, or `~/.local/share/sesame/device.key`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The default path.
    public static func defaultPath(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/sesame/device.key"
        }
        return (environment["HOME"] ?? "/") + "/.local/share/sesame/device.key"
    }

    public func deviceKey() async throws -> SecretBytes {
        do {
            return try file.withExclusiveLock {
                if var existing = try file.read() {
                    defer { wipe(&existing) }
                    guard existing.count == 32 else { throw KeyError.damaged(path: file.path) }
                    return SecretBytes(existing)
                }
                var generator = SystemRandomNumberGenerator()
                var fresh = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
                defer { wipe(&fresh) }
                try file.write(fresh)
                return SecretBytes(fresh)
            }
        } catch let failure as PrivateFile.Failure {
            throw KeyError.system(failure.description)
        }
    }
}
