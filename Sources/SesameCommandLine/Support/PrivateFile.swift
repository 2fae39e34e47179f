#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writing a file that holds secrets (an export, an injected template):
/// 0600 from its first byte, never over an existing file unless asked, and
/// never half-replaced.
enum PrivateFile {
    /// `path` made absolute, so messages name it unambiguously.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Fails early, before any prompt, when the file exists and `force` is off.
    static func requireWritable(_ path: String, force: Bool) throws(CommandFailure) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR { throw CommandFailure(status: .usage, message: "\(path) is a directory") }
        if !force { throw CommandFailure(status: .failure, message: "\(path) exists; sesame never overwrites it without --force") }
    }

    /// Writes `bytes` to `path`, mode 0600. Without `force` the file is
    /// created exclusively (an existing one, even one that appeared since
    /// the check, is kept); with it, a temporary file is renamed over the old
    /// one, so a crash leaves either the old file or the new one.
    static func write(_ bytes: [UInt8], to path: String, force: Bool) throws(CommandFailure) {
        let target = force ? temporaryPath(beside: path) : path
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw CommandFailure(status: .failure, message: "\(path) exists; sesame never overwrites it without --force") }
            throw failure("cannot create", target)
        }
        do throws(CommandFailure) {
            // The umask may only take bits away; make sure it is exactly 0600.
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("cannot set the mode of", target) }
            try writeAll(bytes, to: descriptor, what: target)
            guard fsync(descriptor) == 0 else { throw failure("cannot flush", target) }
            close(descriptor)
            if force, rename(target, path) != 0 { throw failure("cannot replace", path) }
        } catch {
            close(descriptor)
            unlink(target)
            throw error
        }
        syncDirectory(of: path)
    }

    /// Writes the bytes to standard output.
    static func writeStandardOutput(_ bytes: [UInt8]) throws(CommandFailure) {
        try writeAll(bytes, to: 1, what: "standard output")
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, what: String) throws(CommandFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw failure("cannot write to", what) }
            offset += written
        }
    }

    private static func temporaryPath(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")!
        let name = path[path.index(after: slash)...]
        return String(path[...slash]) + "." + name + ".sesame-\(UInt64.random(in: 0...UInt64.max))"
    }

    /// Makes the new directory entry durable too; best effort.
    private static func syncDirectory(of path: String) {
        let slash = path.lastIndex(of: "/")!
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ doing: String, _ path: String) -> CommandFailure {
        CommandFailure(status: .failure, message: "\(doing) \(path): \(String(cString: strerror(errno)))")
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
