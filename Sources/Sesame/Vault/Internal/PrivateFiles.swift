#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files only their owner may touch: directories 0700, files 0600. Anything
/// more open is refused with the path, the mode and the fix, not repaired,
/// because widening could have been an attacker's doing.
enum PrivateFiles {
    static func directory(of path: String) -> String {
        PrivateFile.parentDirectory(of: path)
    }

    /// Creates `directory` and missing parents with mode 0700, then checks it.
    static func ensureDirectory(_ directory: String) throws(VaultError) {
        do throws(PrivateFile.Failure) {
            try PrivateFile.createDirectories(directory)
        } catch {
            guard case .systemCall(_, let path, let code) = error else { throw VaultError(.ioError, error.description) }
            throw VaultError(.ioError, "Cannot create \(path): \(String(cString: strerror(code)))")
        }
        try requirePrivate(directory)
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Fails unless `path` exists, belongs to this user and is closed to others.
    static func requirePrivate(_ path: String) throws(VaultError) {
        let attributes: (mode: UInt32, owner: uid_t)
        do throws(PrivateFile.Failure) {
            attributes = try PrivateFile.attributes(of: path)
        } catch {
            guard case .systemCall(_, _, let code) = error else { throw VaultError(.ioError, error.description) }
            throw VaultError(.ioError, "Cannot inspect \(path): \(String(cString: strerror(code)))")
        }
        if attributes.mode & 0o077 != 0 {
            throw VaultError(.insecurePermissions, "\(path) is accessible to other users (mode \(String(attributes.mode, radix: 8))); Sesame refuses to use it. Run: chmod go-rwx \(path)")
        }
        if attributes.owner != geteuid() {
            throw VaultError(.insecurePermissions, "\(path) belongs to user \(attributes.owner), not to you (\(geteuid())); Sesame refuses to use it")
        }
    }

    /// Creates a new file with mode 0600, failing if it exists, and writes
    /// `bytes` durably.
    static func createFile(_ path: String, contents bytes: [UInt8]) throws(VaultError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw VaultError(.ioError, "Cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else { throw VaultError(.ioError, "Cannot write \(path): \(String(cString: strerror(errno)))") }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw VaultError(.ioError, "Cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    /// Reads a whole private file of at most `limit` bytes.
    static func readFile(_ path: String, limit: Int) throws(VaultError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            throw VaultError(errno == ENOENT ? .locked : .ioError, "Cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        try requirePrivate(path)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { throw VaultError(.ioError, "Cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > limit { throw VaultError(.damaged, "\(path) is larger than \(limit) bytes; it is not what Sesame wrote") }
        }
        return bytes
    }
}
