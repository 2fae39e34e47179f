#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small file only its owner may read: mode 0600 in a directory of mode
/// 0700, read and replaced under an exclusive lock shared across processes,
/// replaced atomically (write, fsync, rename, fsync the directory) so a crash
/// leaves the old or the new contents, never half. Files or directories that
/// others can access are refused, never "fixed".
package struct PrivateFile: Sendable {
    /// Why a private file cannot be used.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A file or directory lets other users in.
        case insecurePermissions(path: String, mode: UInt32)
        /// A system call failed.
        case systemCall(String, path: String, errno: Int32)
        /// The file is larger than any record Sesame writes.
        case tooLarge(path: String)

        package var description: String {
            switch self {
            case .insecurePermissions(let path, let mode):
                "\(path) is accessible to other users (mode \(String(mode, radix: 8))); Sesame refuses to use it. Run: chmod go-rwx \(path)"
            case .systemCall(let call, let path, let code):
                "\(call) failed for \(path): \(String(cString: strerror(code)))"
            case .tooLarge(let path):
                "\(path) is larger than Sesame ever writes it; it is not Sesame's file or it is damaged"
            }
        }
    }

    package let path: String
    package let directory: String
    private var lockPath: String { path + ".lock" }
    private static let maximumSize = 1 << 20

    package init(path: String) {
        self.path = path
        directory = Self.parentDirectory(of: path)
    }

    /// The directory holding `path`.
    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// Creates `directory` and its missing parents, each with mode 0700.
    package static func createDirectories(_ directory: String) throws(Failure) {
        guard mkdir(directory, 0o700) != 0, errno != EEXIST else { return }
        var partial = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw Failure.systemCall("mkdir", path: partial, errno: errno)
            }
        }
    }

    /// The permission bits and the owner of `path` itself (links are not followed).
    package static func attributes(of path: String) throws(Failure) -> (mode: UInt32, owner: uid_t) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Failure.systemCall("stat", path: path, errno: errno) }
        return (UInt32(info.st_mode) & 0o777, info.st_uid)
    }

    /// Whether the directory exists; reading a file in a missing directory
    /// needs no lock and creates nothing.
    package var directoryExists: Bool {
        var info = stat()
        return lstat(directory, &info) == 0
    }

    /// Runs `body` holding the file's exclusive lock, creating the directory
    /// (0700) if needed.
    package func withExclusiveLock<Result>(_ body: () throws -> Result) throws -> Result {
        try ensureDirectory()
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Failure.systemCall("open", path: lockPath, errno: errno) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw Failure.systemCall("flock", path: lockPath, errno: errno) }
        return try body()
    }

    /// The file's bytes, or `nil` when it does not exist. Call under the lock.
    package func read() throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure.systemCall("open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        try requirePrivate(path)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.systemCall("read", path: path, errno: errno)
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > Self.maximumSize { throw Failure.tooLarge(path: path) }
        }
        wipe(&buffer)
        return bytes
    }

    /// Replaces the file's contents atomically. Call under the lock.
    package func write(_ bytes: [UInt8]) throws {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Failure.systemCall("open", path: temporary, errno: errno) }
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let count = systemWrite(descriptor, raw.baseAddress! + written, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw Failure.systemCall("write", path: temporary, errno: failure)
        }
        guard rename(temporary, path) == 0 else { throw Failure.systemCall("rename", path: path, errno: errno) }
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private func ensureDirectory() throws {
        try Self.createDirectories(directory)
        try requirePrivate(directory)
    }

    private func requirePrivate(_ path: String) throws {
        let mode = try Self.attributes(of: path).mode
        if mode & 0o077 != 0 { throw Failure.insecurePermissions(path: path, mode: mode) }
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
