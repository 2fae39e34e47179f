#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import Glibc

/// A digest of the prints fprintd stored for a user, where this process may
/// read them (as root, e.g. a system service): it lets the domain state see a
/// finger deleted and someone else's enrolled under the same name, which the
/// names fprintd reports over D-Bus cannot show.
///
/// fprintd keeps one file per finger under `<store>/<user>/<driver>/<device>/`.
enum FprintdPrintStore {
    private static let maximumFiles = 64
    private static let maximumFileSize = 1 << 20

    /// SHA-256 over every stored print's relative path and bytes, in path
    /// order; `nil` when the user's prints cannot be read.
    static func digest(directory: String, username: String) -> [UInt8]? {
        let root = directory + "/" + username
        let files = FileManager.default
        guard kind(root) == S_IFDIR, access(root, R_OK | X_OK) == 0,
              let relativePaths = try? files.subpathsOfDirectory(atPath: root)
        else { return nil }
        var hash = SHA256()
        var count = 0
        for relative in relativePaths.sorted() {
            let path = root + "/" + relative
            // Links are not followed: the store holds plain files only.
            guard kind(path) == S_IFREG else { continue }
            count += 1
            guard count <= maximumFiles, let contents = files.contents(atPath: path), contents.count <= maximumFileSize else { return nil }
            hash.update(data: Array(relative.utf8) + [0])
            hash.update(data: contents)
        }
        return Array(hash.finalize())
    }

    private static func kind(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}
