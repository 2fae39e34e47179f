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
/// others can access, that belong to someone else, or that are symbolic
/// links are refused, never "fixed".
///
/// The one private-file helper (ARCHITECTURE, "The security core"): the
/// vault file, key files and every record go through its checks.
package struct PrivateFile: Sendable {
    /// Why a private file cannot be used.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A file or directory lets other users in.
        case insecurePermissions(path: String, mode: UInt32)
        /// A system call failed.
        case systemCall(String, path: String, errno: Int32)
        /// The file is larger than any record Sesame writes.
        case tooLarge(path: String)
        /// A file or directory belongs to another user.
        case wrongOwner(path: String, owner: uid_t)
        /// A symbolic link where a private file or directory belongs.
        case symbolicLink(path: String)

        package var description: String {
            switch self {
            case .insecurePermissions(let path, let mode):
                "\(path) is accessible to other users (mode \(String(mode, radix: 8))); Sesame refuses to use it. Run: chmod go-rwx \(path)"
            case .systemCall(let call, let path, let code):
                "\(call) failed for \(path): \(String(cString: strerror(code)))"
            case .tooLarge(let path):
                "\(path) is larger than Sesame ever writes it; it is not Sesame's file or it is damaged"
            case .wrongOwner(let path, let owner):
                "\(path) belongs to user \(owner), not to you (\(geteuid())); Sesame refuses to use it"
            case .symbolicLink(let path):
                "\(path) is a symbolic link; Sesame refuses to follow it for a private file"
            }
        }
    }

    package let path: String
    package let directory: String
    private var lockPath: String { path + ".lock" }
    package static let maximumSize = 1 << 20

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

    /// The device and inode of `path` itself (links are not followed): which
    /// file it is, whatever path names it.
    package static func identity(of path: String) throws(Failure) -> (device: UInt64, inode: UInt64) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Failure.systemCall("stat", path: path, errno: errno) }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
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

    /// Fails unless `path` itself (not a link's target) exists, belongs to
    /// this user and is closed to group and others.
    package static func requirePrivate(_ path: String) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Failure.systemCall("stat", path: path, errno: errno) }
        try requirePrivate(info, path: path)
    }

    /// The one check: not a link, closed to group and others, ours.
    private static func requirePrivate(_ info: stat, path: String) throws(Failure) {
        if (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFLNK) { throw Failure.symbolicLink(path: path) }
        let mode = UInt32(info.st_mode) & 0o777
        if mode & 0o077 != 0 { throw Failure.insecurePermissions(path: path, mode: mode) }
        if info.st_uid != geteuid() { throw Failure.wrongOwner(path: path, owner: info.st_uid) }
    }

    /// Whether anything (a file, a directory, a link) is at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates the file, which must not exist, with mode 0600 and `bytes`,
    /// durably. Needs no lock: `O_EXCL` lets exactly one creator win.
    package func create(_ bytes: [UInt8]) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Failure.systemCall("create", path: path, errno: errno) }
        defer { close(descriptor) }
        if let failure = Self.writeAll(bytes, to: descriptor) { throw Failure.systemCall("write", path: path, errno: failure) }
    }

    /// The file's bytes, or `nil` when it does not exist. Call under the
    /// lock, or for a file that is only ever created whole.
    ///
    /// - Parameter limit: The most bytes the file may hold.
    package func read(limit: Int = maximumSize) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure.systemCall("open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        // The file that was opened is the one checked, whatever is at the path now.
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure.systemCall("stat", path: path, errno: errno) }
        try Self.requirePrivate(info, path: path)
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
            if bytes.count > limit { throw Failure.tooLarge(path: path) }
        }
        wipe(&buffer)
        return bytes
    }

    /// Replaces the file's contents atomically. Call under the lock.
    package func write(_ bytes: [UInt8]) throws {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Failure.systemCall("open", path: temporary, errno: errno) }
        let failure = Self.writeAll(bytes, to: descriptor)
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw Failure.systemCall("write", path: temporary, errno: failure)
        }
        guard rename(temporary, path) == 0 else { throw Failure.systemCall("rename", path: path, errno: errno) }
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Writes every byte and fsyncs; the errno of the first failure, or nil.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        if let failure = writeAll(bytes, to: descriptor, flushing: true) { return failure.errno }
        return nil
    }

    /// Writes every byte, then fsyncs when `flushing`: which of the two
    /// failed and its errno, or nil.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, flushing: Bool) -> (flushing: Bool, errno: Int32)? {
        if let failure = Descriptor.writeAll(bytes, to: descriptor) { return (false, failure) }
        guard flushing, fsync(descriptor) != 0 else { return nil }
        return (true, errno)
    }

    private func ensureDirectory() throws {
        try Self.createDirectories(directory)
        try Self.requirePrivate(directory)
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
