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

/// Files that hold secrets where the user asked for them (an export, a
/// rendered template): 0600 from the first byte, never over an existing file
/// unless asked, and never half-replaced. Unlike Sesame's own files, the
/// directory is the user's choice and is not checked.
extension PrivateFile {
    /// Why such a file was not written.
    package enum OutputFailure: Error, Sendable, Hashable {
        /// Something is at the path, and replacing it was not asked for.
        case exists(path: String)
        /// The path names a directory.
        case directory(path: String)
        /// A step failed on `path`, with `errno`.
        case systemCall(OutputStep, path: String, errno: Int32)
    }

    /// The steps of ``write(_:to:replacing:)`` that can fail.
    package enum OutputStep: Sendable, Hashable {
        case create, setMode, write, flush, replace
    }

    /// `path` made absolute against the working directory, so that messages
    /// name it unambiguously and the temporary file has a directory.
    package static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Fails early, before any prompt, when `path` is a directory, or exists
    /// and `replacing` is off.
    package static func requireWritable(_ path: String, replacing: Bool) throws(OutputFailure) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR { throw .directory(path: path) }
        if !replacing { throw .exists(path: path) }
    }

    /// Writes `bytes` to the absolute `path`, mode 0600, and fsyncs it and its
    /// directory. Without `replacing` the file is created exclusively (an
    /// existing one, even one that appeared since the check, is kept); with
    /// it, a temporary file beside it is renamed over the old one, so a crash
    /// leaves either the old file or the new one.
    package static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputFailure) {
        let target = replacing ? temporaryPath(beside: path) : path
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw .exists(path: path) }
            throw .systemCall(.create, path: target, errno: errno)
        }
        var failure: OutputFailure?
        // The umask may only take bits away; make sure it is exactly 0600.
        if fchmod(descriptor, 0o600) != 0 {
            failure = .systemCall(.setMode, path: target, errno: errno)
        } else if let written = writeAll(bytes, to: descriptor, flushing: true) {
            failure = .systemCall(written.flushing ? .flush : .write, path: target, errno: written.errno)
        }
        close(descriptor)
        if failure == nil, replacing, rename(target, path) != 0 {
            failure = .systemCall(.replace, path: path, errno: errno)
        }
        if let failure {
            unlink(target)
            throw failure
        }
        syncDirectory(of: path)
    }

    private static func temporaryPath(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")!
        let name = path[path.index(after: slash)...]
        return String(path[...slash]) + "." + name + ".sesame-\(UInt64.random(in: 0...UInt64.max))"
    }

    /// Makes the new directory entry durable too; best effort.
    private static func syncDirectory(of path: String) {
        let descriptor = open(parentDirectory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
