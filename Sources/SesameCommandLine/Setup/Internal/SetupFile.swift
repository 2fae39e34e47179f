#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import Sesame

/// A file `sesame setup` writes or `--undo` puts back, read and replaced
/// without following links: a link where setup would write is refused,
/// never replaced or written through, since its target may be a private
/// file (a token); a file's mode is kept and never widened.
enum SetupFile {
    /// What is at a path now: a regular file's text and permission bits.
    struct Contents: Equatable {
        var text: String
        var mode: mode_t
    }

    /// The most a file setup reads may hold; its own files are a few lines.
    static let limit = 1 << 20

    /// The mode of a file setup creates where there was none.
    static let newMode: mode_t = 0o644

    /// The regular file at `path`, or `nil` when nothing is there.
    /// - Throws: ``CommandFailure`` for a link, anything but a regular file,
    ///   or a file that is not UTF-8 text: each says why it is left alone.
    static func read(_ path: String) throws(CommandFailure) -> Contents? {
        let shown = path.escapingControlCharacters()
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw CommandFailure(status: .failure, message: "cannot read \(shown): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " to \($0.escapingControlCharacters())" } ?? ""
            throw CommandFailure(status: .failure, message: """
                \(shown) is a symbolic link\(target): sesame setup neither replaces a link nor writes through it \
                (its target may be a private file); move it away, or replace it with a copy, then run this again
                """)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw CommandFailure(status: .failure, message: "\(shown) is not a regular file: move it away, then run this again")
        }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw CommandFailure(status: .failure, message: "cannot read \(shown): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else {
            throw CommandFailure(status: .failure, message: "\(shown) changed while it was read: run this again")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw CommandFailure(status: .failure, message: "cannot read \(shown): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += chunk.prefix(count)
            guard bytes.count <= limit else { throw CommandFailure(status: .failure, message: "\(shown) is larger than any file sesame setup writes: move it away") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure(status: .failure, message: "\(shown) is not text: move it away, then run this again")
        }
        return Contents(text: text, mode: opened.st_mode & 0o777)
    }

    /// Replaces whatever regular file is at `path` with `text` at `mode`,
    /// atomically (a new file renamed over it), making missing folders.
    static func replace(_ path: String, with text: String, mode: mode_t) throws(CommandFailure) {
        let shown = path.escapingControlCharacters()
        let folder = (path as NSString).deletingLastPathComponent
        let failed = { (what: String) in CommandFailure(status: .failure, message: "cannot write \(shown): \(what)") }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw failed(error.localizedDescription)
        }
        let temporary = folder + "/.\((path as NSString).lastPathComponent).sesame-\(UInt32.random(in: .min ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failed(String(cString: strerror(errno))) }
        var problem: Int32?
        // fchmod, not the umask, decides the mode: a private file stays private, and none is made wider.
        if fchmod(descriptor, mode & 0o777) != 0 { problem = errno }
        if problem == nil { problem = Descriptor.writeAll(text, to: descriptor) }
        if problem == nil && fsync(descriptor) != 0 { problem = errno }
        close(descriptor)
        if problem == nil && rename(temporary, path) != 0 { problem = errno }
        if let problem {
            unlink(temporary)
            throw failed(String(cString: strerror(problem)))
        }
    }

    /// What the record keeps of a text setup wrote, to tell at `--undo`
    /// whether the user changed the file since.
    static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

// At file scope, where `SetupFile.read` does not hide the system calls.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }
